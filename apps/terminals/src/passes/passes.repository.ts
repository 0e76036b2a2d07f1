import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PassSort, SortDirection } from '@tinkerdesk/contracts';
import type { WalletBarcode, WalletTextRow } from '@tinkerdesk/tools/wallet-pass';
import { sql, type SqlRunner } from '@tinkerdesk/persistence';
import type { DataSource, EntityManager, Repository } from 'typeorm';
import { PassEntity, PassImageEntity } from './pass.entity.js';

export interface ImageInfo {
  id: string;
  width: number;
  height: number;
}

export interface PassRow {
  id: string;
  userId: string;
  cardTitle: string;
  header: string;
  subheader: string | null;
  textRows: WalletTextRow[];
  barcode: WalletBarcode | null;
  backgroundColor: string;
  logo: ImageInfo | null;
  hero: ImageInfo | null;
  created: Date;
  modified: Date;
}

/** What a save writes: the fields, and each image slot's id (null: none; undefined: keep the stored one). */
export type PassWrite = Omit<PassRow, 'logo' | 'hero' | 'created' | 'modified'> & {
  logoId: string | null | undefined;
  heroId: string | null | undefined;
};

export interface StoredImage extends ImageInfo {
  bytes: Buffer;
}

const SELECT = `SELECT p.*,
  l."width" AS logo_width, l."height" AS logo_height, h."width" AS hero_width, h."height" AS hero_height
  FROM "terminals"."pass" p
  LEFT JOIN "terminals"."pass_image" l ON l."id" = p."logo_id"
  LEFT JOIN "terminals"."pass_image" h ON h."id" = p."hero_id"`;

/** The ORDER BY of each sort key; the id breaks ties so that pages never overlap or skip. */
const ORDER: Record<PassSort, string> = {
  created: 'p."created"',
  modified: 'p."modified"',
  cardTitle: 'p."card_title"',
  header: 'p."header"',
};

/** A row of SELECT: the pass's columns and its images' sizes. */
interface PassJoinRow {
  id: string;
  user_id: string;
  card_title: string;
  header: string;
  subheader: string | null;
  text_rows: WalletTextRow[] | null;
  barcode: WalletBarcode | null;
  background_color: string;
  logo_id: string | null;
  hero_id: string | null;
  logo_width: number | null;
  logo_height: number | null;
  hero_width: number | null;
  hero_height: number | null;
  created: Date;
  modified: Date;
}

const imageInfo = (id: string | null, width: number | null, height: number | null): ImageInfo | null =>
  id && width !== null && height !== null ? { id, width, height } : null;

const toPass = (r: PassJoinRow): PassRow => ({
  id: r.id,
  userId: r.user_id,
  cardTitle: r.card_title,
  header: r.header,
  subheader: r.subheader,
  textRows: r.text_rows ?? [],
  barcode: r.barcode,
  backgroundColor: r.background_color,
  logo: imageInfo(r.logo_id, r.logo_width, r.logo_height),
  hero: imageInfo(r.hero_id, r.hero_width, r.hero_height),
  created: r.created,
  modified: r.modified,
});

/** PostgreSQL's foreign_key_violation: an image the save references was removed meanwhile. */
export const FOREIGN_KEY_VIOLATION = '23503';

/** The only place that touches passes and their images. */
@Injectable()
export class PassesRepository {
  private readonly passes: Repository<PassEntity>;
  private readonly images: Repository<PassImageEntity>;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.passes = db.getRepository(PassEntity);
    this.images = db.getRepository(PassImageEntity);
  }

  /** Stores an image (or, when this account stored the same one before, marks it stored now). */
  storeImage(image: StoredImage & { userId: string }): Promise<ImageInfo> {
    return sql.one<ImageInfo>(
      this.db,
      `INSERT INTO "terminals"."pass_image" ("id", "user_id", "type", "width", "height", "size", "bytes")
       VALUES ($1, $2, 'image/png', $3, $4, $5, $6)
       ON CONFLICT ("id") DO UPDATE SET "stored" = now()
       RETURNING "id", "width", "height"`,
      [image.id, image.userId, image.width, image.height, image.bytes.length, image.bytes],
    );
  }

  image(id: string): Promise<StoredImage | null> {
    return this.images.findOne({ select: { id: true, width: true, height: true, bytes: true }, where: { id } });
  }

  /** Which of these images the account stored (FOR KEY SHARE: they cannot be deleted until the transaction ends). */
  async ownImages(ids: string[], userId: string, manager: SqlRunner = this.db): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await sql.rows<{ id: string }>(
      manager,
      `SELECT "id" FROM "terminals"."pass_image" WHERE "id" = ANY($1::text[]) AND "user_id" = $2 FOR KEY SHARE`,
      [ids, userId],
    );
    return new Set(rows.map((r) => r.id));
  }

  count(userId: string): Promise<number> {
    return this.passes.countBy({ userId });
  }

  /** A pass of the user, or null (another user's answers null too). */
  async find(id: string, userId: string, manager: SqlRunner = this.db): Promise<PassRow | null> {
    const row = await sql.maybeOne<PassJoinRow>(manager, `${SELECT} WHERE p."id" = $1 AND p."user_id" = $2`, [id, userId]);
    return row ? toPass(row) : null;
  }

  /** Whether a pass with this id exists, whoever owns it (locked until the transaction ends). */
  private async ownerOf(id: string, manager: EntityManager): Promise<Pick<PassEntity, 'userId' | 'logoId' | 'heroId'> | null> {
    const row = await sql.maybeOne<{ user_id: string; logo_id: string | null; hero_id: string | null }>(
      manager,
      `SELECT "user_id", "logo_id", "hero_id" FROM "terminals"."pass" WHERE "id" = $1 FOR UPDATE`,
      [id],
    );
    return row ? { userId: row.user_id, logoId: row.logo_id, heroId: row.hero_id } : null;
  }

  /**
   * Creates or replaces a pass in one transaction; the images it no longer references go unless
   * another pass does. `check` runs inside it, with the stored pass of that id (null: new) and the
   * account's images among those named, and throws to refuse. Null when the id is another account's.
   */
  async save(
    pass: PassWrite,
    check: (existing: { logoId: string | null; heroId: string | null } | null, ownImages: Set<string>) => Promise<void>,
  ): Promise<{ row: PassRow; created: boolean } | null> {
    return this.db.transaction(async (m) => {
      const existing = await this.ownerOf(pass.id, m);
      if (existing && existing.userId !== pass.userId) return null;
      const logoId = pass.logoId === undefined ? (existing?.logoId ?? null) : pass.logoId;
      const heroId = pass.heroId === undefined ? (existing?.heroId ?? null) : pass.heroId;
      const named = [pass.logoId, pass.heroId].filter((id): id is string => typeof id === 'string');
      await check(existing, await this.ownImages(named, pass.userId, m));
      const fields = {
        cardTitle: pass.cardTitle,
        header: pass.header,
        subheader: pass.subheader,
        textRows: pass.textRows,
        barcode: pass.barcode,
        backgroundColor: pass.backgroundColor,
        logoId,
        heroId,
      };
      const passes = m.getRepository(PassEntity);
      if (existing) {
        await passes.update({ id: pass.id, userId: pass.userId }, { ...fields, modified: () => 'clock_timestamp()' });
        await this.dropUnreferenced([existing.logoId, existing.heroId], m);
      } else {
        await passes.insert({ id: pass.id, userId: pass.userId, ...fields });
      }
      return { row: (await this.find(pass.id, pass.userId, m))!, created: existing === null };
    });
  }

  async remove(id: string, userId: string): Promise<boolean> {
    return this.db.transaction(async (m) => {
      const removed = await sql.maybeOne<{ logo_id: string | null; hero_id: string | null }>(
        m,
        `DELETE FROM "terminals"."pass" WHERE "id" = $1 AND "user_id" = $2 RETURNING "logo_id", "hero_id"`,
        [id, userId],
      );
      if (!removed) return false;
      await this.dropUnreferenced([removed.logo_id, removed.hero_id], m);
      return true;
    });
  }

  /** Removes these images when no pass references them any more. */
  private async dropUnreferenced(ids: Array<string | null>, m: EntityManager): Promise<void> {
    const candidates = ids.filter((id): id is string => id !== null);
    if (candidates.length === 0) return;
    await sql.execute(
      m,
      `DELETE FROM "terminals"."pass_image" i WHERE i."id" = ANY($1::text[])
         AND NOT EXISTS (SELECT 1 FROM "terminals"."pass" p WHERE p."logo_id" = i."id" OR p."hero_id" = i."id")`,
      [candidates],
    );
  }

  /** Removes images stored more than `olderThanSeconds` ago that no pass references; answers how many. */
  sweepImages(olderThanSeconds: number): Promise<number> {
    return sql.execute(
      this.db,
      `DELETE FROM "terminals"."pass_image" i WHERE i."stored" < now() - make_interval(secs => $1)
         AND NOT EXISTS (SELECT 1 FROM "terminals"."pass" p WHERE p."logo_id" = i."id" OR p."hero_id" = i."id")`,
      [olderThanSeconds],
    );
  }

  async list(
    userId: string,
    query: { offset: number; limit: number; sort: PassSort; dir: SortDirection },
  ): Promise<{ rows: PassRow[]; total: number }> {
    const dir = query.dir === 'ASC' ? 'ASC' : 'DESC';
    const [rows, total] = await Promise.all([
      sql.rows<PassJoinRow>(
        this.db,
        `${SELECT} WHERE p."user_id" = $1 ORDER BY ${ORDER[query.sort]} ${dir}, p."id" ${dir} LIMIT $2 OFFSET $3`,
        [userId, query.limit, query.offset],
      ),
      this.count(userId),
    ]);
    return { rows: rows.map(toPass), total };
  }
}
