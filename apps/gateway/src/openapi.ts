import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { PLATFORM_VERSION } from '@tinkerdesk/contracts';

/**
 * OpenAPI 3 document generated from the controllers and the contract DTOs that also validate the
 * requests: JSON at /v1/openapi.json, browsable docs at /v1/docs.
 */
export function mountOpenApi(app: INestApplication, publicUrl: string): void {
  const config = new DocumentBuilder()
    .setTitle('Tinkerdesk API')
    .setDescription(
      'The /v1 API of Tinkerdesk. Every error is `{ "success": false, "error": "CODE", "detail": "text" }` with a fitting HTTP status.',
    )
    .setVersion(PLATFORM_VERSION)
    .addServer(publicUrl)
    .addBearerAuth()
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('v1/docs', app, document, {
    jsonDocumentUrl: 'v1/openapi.json',
    yamlDocumentUrl: 'v1/openapi.yaml',
    customSiteTitle: 'Tinkerdesk API',
    ui: true,
    raw: ['json', 'yaml'],
  });
}
