import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  CreateSavedFileMessage,
  FileUploadBeginMessage,
  FileUploadEndMessage,
  ListFilesMessage,
  OwnedFileMessage,
  SUBJECTS,
  type RpcResponse,
} from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { SavedFilesService } from './saved-files.service.js';

/** NATS handlers: translate only, the rules are in the service. */
@Controller()
export class SavedFilesController {
  constructor(@Inject(SavedFilesService) private readonly files: SavedFilesService) {}

  @Handles(SUBJECTS.conversion.fileCreate)
  create(@Payload() input: CreateSavedFileMessage): Promise<RpcResponse<typeof SUBJECTS.conversion.fileCreate>> {
    return this.files.create(input);
  }

  @Handles(SUBJECTS.conversion.fileComplete)
  complete(@Payload() input: OwnedFileMessage): Promise<RpcResponse<typeof SUBJECTS.conversion.fileComplete>> {
    return this.files.complete(input.id, input.ownerId);
  }

  @Handles(SUBJECTS.conversion.fileList)
  list(@Payload() input: ListFilesMessage): Promise<RpcResponse<typeof SUBJECTS.conversion.fileList>> {
    return this.files.list(input.ownerId, input.offset, input.limit);
  }

  @Handles(SUBJECTS.conversion.fileDownload)
  download(@Payload() input: OwnedFileMessage): Promise<RpcResponse<typeof SUBJECTS.conversion.fileDownload>> {
    return this.files.download(input.id, input.ownerId);
  }

  @Handles(SUBJECTS.conversion.fileDelete)
  delete(@Payload() input: OwnedFileMessage): Promise<RpcResponse<typeof SUBJECTS.conversion.fileDelete>> {
    return this.files.delete(input.id, input.ownerId);
  }

  @Handles(SUBJECTS.conversion.fileAbandon)
  abandon(@Payload() input: OwnedFileMessage): Promise<RpcResponse<typeof SUBJECTS.conversion.fileAbandon>> {
    return this.files.abandon(input.id, input.ownerId);
  }

  @Handles(SUBJECTS.conversion.fileUploadBegin)
  uploadBegin(@Payload() input: FileUploadBeginMessage): Promise<RpcResponse<typeof SUBJECTS.conversion.fileUploadBegin>> {
    return this.files.beginUpload(input);
  }

  @Handles(SUBJECTS.conversion.fileUploadEnd)
  uploadEnd(@Payload() input: FileUploadEndMessage): Promise<RpcResponse<typeof SUBJECTS.conversion.fileUploadEnd>> {
    return this.files.endUpload(input);
  }
}
