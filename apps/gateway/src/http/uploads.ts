import type { MulterOptions } from '@nestjs/platform-express/multer/interfaces/multer-options.interface.js';
import { AppError, inputProblem } from '@tinkerdesk/contracts';

/**
 * The multipart limits of every upload route, and the input check of the uploaded file's name (its
 * text fields go through the validation pipe like any body).
 */
export function uploadOptions(fileSizeLimit: number): MulterOptions {
  return {
    limits: { fileSize: fileSizeLimit, files: 1, fields: 20, fieldSize: 64 * 1024 },
    fileFilter: (_request, file, accept) => {
      const problem = inputProblem(file.originalname, 'the file name');
      if (problem) accept(new AppError('VALIDATION_FAILED', problem), false);
      else accept(null, true);
    },
  };
}
