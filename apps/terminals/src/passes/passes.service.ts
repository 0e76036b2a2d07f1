import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  MAX_PASSES,
  PASS_IMAGE_SLOTS,
  PASS_IMAGE_STORED_MAX_BYTES,
  passImagePath,
  type ListPassesMessage,
  type PassAppleData,
  type PassGoogleView,
  type PassImageData,
  type PassImageRef,
  type PassList,
  type PassSaved,
  type PassView,
  type SavePassMessage,
  type StorePassImageMessage,
  type WalletConfigView,
} from '@tinkerdesk/contracts';
import { FOREIGN_KEY_VIOLATION, PassesRepository, type ImageInfo, type PassRow } from './passes.repository.js';
import { WALLETS, type WalletPass, type Wallets } from './wallets.js';

export const PASSES_PUBLIC_URL = Symbol('PASSES_PUBLIC_URL');

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk, or null when the bytes are not a PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The largest image any slot holds (the gateway resizes into the slot's box before storing). */
const MAX_SIDE = Math.max(...Object.values(PASS_IMAGE_SLOTS).flatMap((s) => [s.width, s.height]));

/**
 * Wallet passes: a user's pass designs (fields, a logo and a hero image) kept by the id the page chose,
 * turned into a "Save to Google Wallet" link or an Apple Wallet .pkpass. Another account's pass is
 * answered exactly like a missing one. Images are stored before the save that references them (each
 * NATS message stays under 1 MiB), per account and content; unreferenced ones go with the pass that
 * dropped them, or with the sweep an hour after they were stored.
 */
@Injectable()
export class PassesService {
  constructor(
    @Inject(PassesRepository) private readonly passes: PassesRepository,
    @Inject(WALLETS) private readonly wallets: Wallets,
    @Inject(PASSES_PUBLIC_URL) private readonly publicUrl: string,
  ) {}

  private imageUrl(id: string): string {
    return new URL(passImagePath(id), this.publicUrl).toString();
  }

  private view(row: PassRow): PassView {
    const image = (info: ImageInfo | null) => (info ? { url: this.imageUrl(info.id), width: info.width, height: info.height } : null);
    return {
      id: row.id,
      cardTitle: row.cardTitle,
      header: row.header,
      subheader: row.subheader,
      textRows: row.textRows,
      barcode: row.barcode,
      backgroundColor: row.backgroundColor,
      logo: image(row.logo),
      hero: image(row.hero),
      created: row.created.toISOString(),
      modified: row.modified.toISOString(),
    };
  }

  private async own(passId: string, userId: string): Promise<PassRow> {
    const row = await this.passes.find(passId, userId);
    if (!row) throw new AppError('NOT_FOUND', 'no such pass');
    return row;
  }

  async storeImage(input: StorePassImageMessage): Promise<PassImageRef> {
    const bytes = Buffer.from(input.data, 'base64');
    if (bytes.length > PASS_IMAGE_STORED_MAX_BYTES) {
      throw new AppError('PAYLOAD_TOO_LARGE', `a stored image may have at most ${PASS_IMAGE_STORED_MAX_BYTES} bytes`);
    }
    const size = pngSize(bytes);
    if (!size) throw new AppError('VALIDATION_FAILED', 'a stored image must be a PNG');
    if (size.width < 1 || size.height < 1 || size.width > MAX_SIDE || size.height > MAX_SIDE) {
      throw new AppError('VALIDATION_FAILED', `a stored image must be at most ${MAX_SIDE} pixels wide and high`);
    }
    const id = createHash('sha256').update(`${input.userId}\n`).update(bytes).digest('hex');
    return this.passes.storeImage({ id, userId: input.userId, bytes, ...size });
  }

  async image(imageId: string): Promise<PassImageData> {
    const image = await this.passes.image(imageId);
    if (!image) throw new AppError('NOT_FOUND', 'no such image');
    return { id: image.id, width: image.width, height: image.height, type: 'image/png', data: image.bytes.toString('base64') };
  }

  async save(input: SavePassMessage): Promise<PassSaved> {
    const subheader = input.subheader?.trim() ? input.subheader : null;
    const barcode = input.barcode
      ? {
          type: input.barcode.type,
          value: input.barcode.value,
          ...(input.barcode.alternateText ? { alternateText: input.barcode.alternateText } : {}),
        }
      : null;
    let saved: { row: PassRow; created: boolean } | null;
    try {
      saved = await this.passes.save(
        {
          id: input.passId,
          userId: input.userId,
          cardTitle: input.cardTitle,
          header: input.header,
          subheader,
          textRows: input.textRows.map((r) => ({ header: r.header, body: r.body })),
          barcode,
          backgroundColor: input.backgroundColor.toLowerCase(),
          // Left out: the stored image stays.
          logoId: input.logo,
          heroId: input.hero,
        },
        async (existing, ownImages) => {
          if (!existing && (await this.passes.count(input.userId)) >= MAX_PASSES) {
            throw new AppError('CONFLICT', `an account may keep at most ${MAX_PASSES} passes: delete one first`);
          }
          for (const slot of ['logo', 'hero'] as const) {
            const named = input[slot];
            if (typeof named === 'string' && !ownImages.has(named)) {
              throw new AppError('CONFLICT', `the ${slot} image is no longer stored (it expired): send it again`);
            }
          }
        },
      );
    } catch (error) {
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) {
        throw new AppError('CONFLICT', 'an image of this pass was removed while it was saved: send it again');
      }
      throw error;
    }
    // Another account's pass with this id: answered as missing, never overwritten.
    if (!saved) throw new AppError('NOT_FOUND', 'no such pass');
    return { pass: this.view(saved.row), created: saved.created };
  }

  async get(passId: string, userId: string): Promise<PassView> {
    return this.view(await this.own(passId, userId));
  }

  async list(input: ListPassesMessage): Promise<PassList> {
    const offset = input.offset ?? 0;
    const limit = input.limit ?? 20;
    const { rows, total } = await this.passes.list(input.userId, {
      offset,
      limit,
      sort: input.sort ?? 'created',
      dir: input.dir ?? 'DESC',
    });
    return { passes: rows.map((r) => this.view(r)), total, offset, limit };
  }

  async remove(passId: string, userId: string): Promise<void> {
    if (!(await this.passes.remove(passId, userId))) throw new AppError('NOT_FOUND', 'no such pass');
  }

  private walletPass(row: PassRow): WalletPass {
    return {
      id: row.id,
      cardTitle: row.cardTitle,
      header: row.header,
      ...(row.subheader ? { subheader: row.subheader } : {}),
      textRows: row.textRows,
      ...(row.barcode ? { barcode: row.barcode } : {}),
      backgroundColor: row.backgroundColor,
      ...(row.logo ? { logoUrl: this.imageUrl(row.logo.id) } : {}),
      ...(row.hero ? { heroUrl: this.imageUrl(row.hero.id) } : {}),
    };
  }

  async google(passId: string, userId: string): Promise<PassGoogleView> {
    return this.wallets.google(this.walletPass(await this.own(passId, userId)));
  }

  async apple(passId: string, userId: string): Promise<PassAppleData> {
    const row = await this.own(passId, userId);
    const load = async (info: ImageInfo | null) => (info ? ((await this.passes.image(info.id))?.bytes ?? null) : null);
    const bytes = await this.wallets.apple(this.walletPass(row), { logo: await load(row.logo), hero: await load(row.hero) });
    const name = row.cardTitle.replace(/[^\p{L}\p{N} ._-]+/gu, '').trim() || 'pass';
    return { filename: `${name.slice(0, 60)}.pkpass`, data: bytes.toString('base64') };
  }

  walletConfig(): WalletConfigView {
    return this.wallets.config();
  }
}
