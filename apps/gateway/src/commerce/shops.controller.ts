import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ShopSlugParamsDto, SUBJECTS, type ResponseMap } from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { JsonBody } from '../http/json-body.js';
import { ApiAnswer, ApiErrors } from '../http/api-docs.js';

/** Shop links (docs/api.md#shop-links): the short address a seller chose for one of their services. */
@ApiTags('services')
@Controller('v1/shops')
export class ShopsController {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  @Get(':slug')
  @ApiOperation({
    summary: 'A shop by its short link (/s/{slug}): the same public page as GET /v1/users/{id}/services/{sid}',
  })
  @ApiAnswer(200, 'Storefront')
  @ApiErrors('NOT_FOUND')
  async shop(@Param() params: ShopSlugParamsDto): Promise<JsonBody<ResponseMap['Storefront']>> {
    const address = await this.rpc.send(SUBJECTS.commerce.shopResolve, { slug: params.slug });
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.commerce.storefrontGet, address));
  }
}
