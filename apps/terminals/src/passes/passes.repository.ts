import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PassSort, SortDirection } from '@tinkerdesk/contracts';
import type { WalletBarcode, WalletTextRow } from '@tinkerdesk/tools/wallet-pass';
import type { DataSource, EntityManager } from 'typeorm';

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

const toPass = (r: Record<string, unknown>): PassRow => ({
  id: r.id as string,
  userId: r.user_id as string,
  cardTitle: r.card_title as string,
  header: r.header as string,
  subheader: (r.subheader as string | null) ?? null,
  textRows: (r.text_rows as WalletTextRow[]) ?? [],
  barcode: (r.barcode as WalletBarcode | null) ?? null,
  backgroundColor: r.background_color as string,
  logo: r.logo_id ? { id: r.logo_id as string, width: r.logo_width as number, height: r.logo_height as number } : null,
  hero: r.hero_id ? { id: r.hero_id as string, width: r.hero_width as number, height: r.hero_height as number } : null,
  created: r.created as Date,
  modified: r.modified as Date,
});

/** PostgreSQL's foreign_key_violation: an image the save references was removed meanwhile. */
export const FOREIGN_KEY_VIOLATION = '23503';

/** The only place that touches passes and their images. */
@Injectable()
export class PassesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores an image (or, when this account stored the same one before, marks it stored now). */
  async storeImage(image: StoredImage & { userId: string }): Promise<ImageInfo> {
    const rows = (await this.db.query(
      `INSERT INTO "terminals"."pass_image" ("id", "user_id", "type", "width", "height", "size", "bytes")
       VALUES ($1, $2, 'image/png', $3, $4, $5, $6)
       ON CONFLICT ("id") DO UPDATE SET "stored" = now()
       RETURNING "id", "width", "height"`,
      [image.id, image.userId, image.width, image.height, image.bytes.length, image.bytes],
    )) as ImageInfo[];
    return rows[0]!;
  }

  async image(id: string): Promise<StoredImage | null> {
    const rows = (await this.db.query(`SELECT "id", "width", "height", "bytes" FROM "terminals"."pass_image" WHERE "id" = $1`, [
      id,
    ])) as StoredImage[];
    return rows[0] ?? null;
  }

  /** Which of these images the account stored. */
  async ownImages(ids: string[], userId: string, manager: EntityManager = this.db.manager): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = (await manager.query(
      `SELECT "id" FROM "terminals"."pass_image" WHERE "id" = ANY($1::text[]) AND "user_id" = $2 FOR KEY SHARE`,
      [ids, userId],
    )) as Array<{ id: string }>;
    return new Set(rows.map((r) => r.id));
  }

  async count(userId: string): Promise<number> {
    const rows = (await this.db.query(`SELECT count(*)::int AS n FROM "terminals"."pass" WHERE "user_id" = $1`, [userId])) as Array<{
      n: number;
    }>;
    return rows[0]?.n ?? 0;
  }

  /** A pass of the user, or null (another user's answers null too). */
  async find(id: string, userId: string, manager: EntityManager = this.db.manager): Promise<PassRow | null> {
    const rows = (await manager.query(`${SELECT} WHERE p."id" = $1 AND p."user_id" = $2`, [id, userId])) as Array<Record<string, unknown>>;
    return rows[0] ? toPass(rows[0]) : null;
  }

  /** Whether a pass with this id exists, whoever owns it (locked until the transaction ends). */
  private async ownerOf(
    id: string,
    manager: EntityManager,
  ): Promise<{ userId: string; logoId: string | null; heroId: string | null } | null> {
    const rows = (await manager.query(`SELECT "user_id", "logo_id", "hero_id" FROM "terminals"."pass" WHERE "id" = $1 FOR UPDATE`, [
      id,
    ])) as Array<{ user_id: string; logo_id: string | null; hero_id: string | null }>;
    const row = rows[0];
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
      const values = [
        pass.id,
        pass.userId,
        pass.cardTitle,
        pass.header,
        pass.subheader,
        JSON.stringify(pass.textRows),
        pass.barcode ? JSON.stringify(pass.barcode) : null,
        pass.backgroundColor,
        logoId,
        heroId,
      ];
      if (existing) {
        await m.query(
          `UPDATE "terminals"."pass" SET "card_title" = $3, "header" = $4, "subheader" = $5, "text_rows" = $6::jsonb, "barcode" = $7::jsonb,
             "background_color" = $8, "logo_id" = $9, "hero_id" = $10, "modified" = clock_timestamp()
           WHERE "id" = $1 AND "user_id" = $2`,
          values,
        );
        await this.dropUnreferenced([existing.logoId, existing.heroId], m);
      } else {
        await m.query(
          `INSERT INTO "terminals"."pass" ("id", "user_id", "card_title", "header", "subheader", "text_rows", "barcode", "background_color", "logo_id", "hero_id")
           VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, $10)`,
          values,
        );
      }
      return { row: (await this.find(pass.id, pass.userId, m))!, created: existing === null };
    });
  }

  async remove(id: string, userId: string): Promise<boolean> {
    return this.db.transaction(async (m) => {
      const rows = (await m.query(`DELETE FROM "terminals"."pass" WHERE "id" = $1 AND "user_id" = $2 RETURNING "logo_id", "hero_id"`, [
        id,
        userId,
      ])) as [Array<{ logo_id: string | null; hero_id: string | null }>, number];
      const removed = rows[0][0];
      if (!removed) return false;
      await this.dropUnreferenced([removed.logo_id, removed.hero_id], m);
      return true;
    });
  }

  /** Removes these images when no pass references them any more. */
  private async dropUnreferenced(ids: Array<string | null>, m: EntityManager): Promise<void> {
    const candidates = ids.filter((id): id is string => id !== null);
    if (candidates.length === 0) return;
    await m.query(
      `DELETE FROM "terminals"."pass_image" i WHERE i."id" = ANY($1::text[])
         AND NOT EXISTS (SELECT 1 FROM "terminals"."pass" p WHERE p."logo_id" = i."id" OR p."hero_id" = i."id")`,
      [candidates],
    );
  }

  /** Removes images stored more than `olderThanSeconds` ago that no pass references; answers how many. */
  async sweepImages(olderThanSeconds: number): Promise<number> {
    const [, count] = (await this.db.query(
      `DELETE FROM "terminals"."pass_image" i WHERE i."stored" < now() - make_interval(secs => $1)
         AND NOT EXISTS (SELECT 1 FROM "terminals"."pass" p WHERE p."logo_id" = i."id" OR p."hero_id" = i."id")`,
      [olderThanSeconds],
    )) as [unknown, number];
    return count;
  }

  async list(
    userId: string,
    query: { offset: number; limit: number; sort: PassSort; dir: SortDirection },
  ): Promise<{ rows: PassRow[]; total: number }> {
    const dir = query.dir === 'ASC' ? 'ASC' : 'DESC';
    const [rows, counted] = await Promise.all([
      this.db.query(`${SELECT} WHERE p."user_id" = $1 ORDER BY ${ORDER[query.sort]} ${dir}, p."id" ${dir} LIMIT $2 OFFSET $3`, [
        userId,
        query.limit,
        query.offset,
      ]) as Promise<Array<Record<string, unknown>>>,
      this.db.query(`SELECT count(*)::int AS n FROM "terminals"."pass" WHERE "user_id" = $1`, [userId]) as Promise<Array<{ n: number }>>,
    ]);
    return { rows: rows.map(toPass), total: counted[0]?.n ?? 0 };
  }
}
