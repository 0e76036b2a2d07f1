import { Module } from '@nestjs/common';
import { FilesController } from './files.controller.js';
import { savedFilesStoreProvider } from './saved-files-store.provider.js';
import { StorageController } from './storage.controller.js';

/** Saved files: the /v1/files calls (to the conversion service) and the site's own signed storage. */
@Module({ controllers: [FilesController, StorageController], providers: [savedFilesStoreProvider] })
export class FilesModule {}
