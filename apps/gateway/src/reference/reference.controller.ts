import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AppError, REFERENCE_NAMES, type ResponseMap } from '@tinkerdesk/contracts';
import { ApiAnswer, ApiErrors } from '../http/api-docs.js';
import { isReferenceName, referenceData } from './reference-data.js';

/** The reference lists the forms use (docs/api.md "Reference data"). */
@ApiTags('reference')
@Controller('v1/reference')
export class ReferenceController {
  @Get(':name')
  @Header('cache-control', 'public, max-age=3600')
  @ApiParam({ name: 'name', enum: REFERENCE_NAMES })
  @ApiOperation({
    summary: 'A reference list: reminder-days, time-zones, ca-provinces, us-states, countries, locales, shipping-services',
  })
  @ApiAnswer(200, 'Reference')
  @ApiErrors('NOT_FOUND')
  list(@Param('name') name: string): ResponseMap['Reference'] {
    if (!isReferenceName(name))
      throw new AppError('NOT_FOUND', `no reference list named ${name.slice(0, 40)} (there are: ${REFERENCE_NAMES.join(', ')})`);
    return { success: true, ...referenceData(name) };
  }
}
