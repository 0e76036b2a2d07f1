import { describe, expect, it } from '@jest/globals';
import { readStored } from './draft-store';
import { draftErrors, draftOf, exportStem, moveItem, newDraft, passFields, type PassDraft } from './draft';
import { googleJson } from './export';
import { imageFileProblem, imageSizeHint } from './images';

const draft = (patch: Partial<PassDraft> = {}): PassDraft => ({ ...newDraft(), ...patch });

describe('passFields', () => {
  it('trims, drops blank rows and leaves out empty optional fields', () => {
    const fields = passFields(
      draft({
        cardTitle: '  Café ',
        header: 'Card',
        subheader: '   ',
        textRows: [
          { key: 'a', header: ' Points ', body: ' 12 ' },
          { key: 'b', header: '', body: '  ' },
        ],
        alternateText: '',
        backgroundColor: '#ABCDEF',
      }),
    );
    expect(fields).toEqual({
      cardTitle: 'Café',
      header: 'Card',
      textRows: [{ header: 'Points', body: '12' }],
      barcode: { type: 'qrcode', value: 'https://tinkerdesk.dev' },
      backgroundColor: '#abcdef',
    });
  });

  it('has no barcode when it is switched off or has no data', () => {
    expect(passFields(draft({ withBarcode: false })).barcode).toBeUndefined();
    expect(passFields(draft({ barcodeValue: '' })).barcode).toBeUndefined();
    expect(passFields(draft({ barcodeType: 'ean13', barcodeValue: '9520123456788', alternateText: ' 952 ' })).barcode).toEqual({
      type: 'ean13',
      value: '9520123456788',
      alternateText: '952',
    });
  });
});

describe('draftErrors', () => {
  it('accepts the sample', () => {
    expect(draftErrors(newDraft())).toEqual({});
  });

  it('names each problem by field', () => {
    const rows = [
      { key: 'x', header: 'Label only', body: '' },
      { key: 'y', header: '', body: 'value without a label' },
      { key: 'z', header: 'L'.repeat(41), body: 'long label' },
    ];
    expect(
      draftErrors(draft({ cardTitle: ' ', header: 'H'.repeat(61), textRows: rows, barcodeValue: '', backgroundColor: '#12345' })),
    ).toEqual({
      cardTitle: 'Card title is required.',
      header: 'Header can be at most 60 characters.',
      'row-x': 'Row 1 needs a value (the label is optional).',
      'row-z': "Row 3's label can be at most 40 characters.",
      barcodeValue: 'Type the data of the barcode, or switch the barcode off.',
      backgroundColor: 'Use a colour like #4f46e5 (# and six hexadecimal digits).',
    });
  });

  it('counts characters, not UTF-16 units', () => {
    expect(draftErrors(draft({ cardTitle: '😀'.repeat(60) })).cardTitle).toBeUndefined();
  });

  it('does not check the barcode when it is off', () => {
    expect(draftErrors(draft({ withBarcode: false, barcodeValue: '' }))).toEqual({});
  });
});

describe('draftOf', () => {
  it('opens a saved pass as a draft that gives the same fields back', () => {
    const pass = {
      id: '6f1c1f3e-8a5b-4f8e-9a43-0c6f1f3b9a10',
      cardTitle: 'Gym',
      header: 'Member',
      subheader: null,
      textRows: [{ header: 'Since', body: '2024' }],
      barcode: { type: 'code128' as const, value: 'ABC-123' },
      backgroundColor: '#112233',
    };
    const opened = draftOf(pass);
    expect(opened.id).toBe(pass.id);
    expect(passFields(opened)).toEqual({
      cardTitle: 'Gym',
      header: 'Member',
      textRows: [{ header: 'Since', body: '2024' }],
      barcode: { type: 'code128', value: 'ABC-123' },
      backgroundColor: '#112233',
    });
    expect(draftOf({ ...pass, barcode: null }).withBarcode).toBe(false);
  });
});

describe('moveItem', () => {
  it('moves within the list and ignores moves past its ends', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveItem(['a', 'b'], 1, 2)).toEqual(['a', 'b']);
  });
});

describe('readStored', () => {
  it('takes a kept draft back, and ignores damaged ones', () => {
    const kept = { draft: newDraft(), images: {}, saved: null };
    expect(readStored(kept)).toEqual(kept);
    const saved = { id: kept.draft.id, owner: 'user-1', key: '{}', logo: true, hero: false };
    expect(readStored({ ...kept, saved })?.saved).toEqual(saved);
    expect(readStored({ ...kept, saved: { ...saved, owner: undefined } })?.saved).toBeNull();
    expect(readStored({ draft: { ...newDraft(), barcodeType: 'maxicode' }, images: {} })).toBeUndefined();
    expect(readStored({ draft: { cardTitle: 1 } })).toBeUndefined();
    expect(readStored('nonsense')).toBeUndefined();
    expect(readStored({ ...kept, images: { logo: { kind: 'local', blob: 'not a blob' } } })?.images).toEqual({});
  });
});

describe('images', () => {
  it('refuses other types, empty files and files over 10 MB, with the reason', () => {
    expect(imageFileProblem({ name: 'a.svg', type: 'image/svg+xml', size: 10 }, 'logo')).toBe(
      'Logo: "a.svg" is not a PNG, JPEG, WebP or GIF picture (its type is image/svg+xml).',
    );
    expect(imageFileProblem({ name: 'notes.txt', type: '', size: 10 }, 'hero')).toBe(
      'Hero image: "notes.txt" is not a PNG, JPEG, WebP or GIF picture.',
    );
    expect(imageFileProblem({ name: 'big.png', type: 'image/png', size: 10_600_000 }, 'hero')).toBe(
      'Hero image: "big.png" is 10.6 MB; a pass picture can be at most 10 MB.',
    );
    expect(imageFileProblem({ name: 'a.gif', type: 'image/gif', size: 10 }, 'logo')).toBeUndefined();
    expect(imageFileProblem({ name: 'empty.png', type: 'image/png', size: 0 }, 'logo')).toBe('Logo: "empty.png" is empty.');
    expect(imageFileProblem({ name: 'ok.jpg', type: 'image/jpeg', size: 1000 }, 'logo')).toBeUndefined();
  });

  it('hints when a picture is smaller than Google recommends', () => {
    expect(imageSizeHint({ width: 660, height: 660 }, 'logo')).toBeUndefined();
    expect(imageSizeHint({ width: 100, height: 100 }, 'logo')).toMatch(/660 × 660/);
  });
});

describe('googleJson', () => {
  it('builds the class and object with the shared builders; image URLs only for saved pictures', () => {
    const fields = passFields(draft({ subheader: '' }));
    const local = { kind: 'local' as const, blob: new Blob(['x']), name: 'l.png', type: 'image/png', width: 1, height: 1 };
    const saved = { kind: 'saved' as const, url: '/v1/passes/images/abc.png', width: 1032, height: 336 };
    const json = JSON.parse(googleJson(fields, 'pass-1', { logo: local, hero: saved }, 'https://site.example')) as {
      genericClass: { id: string };
      genericObject: Record<string, unknown>;
    };
    expect(json.genericClass.id).toBe('ISSUER_ID.tinkerdesk_generic');
    expect(json.genericObject).toMatchObject({
      id: 'ISSUER_ID.pass-1',
      classId: 'ISSUER_ID.tinkerdesk_generic',
      cardTitle: { defaultValue: { language: 'en-US', value: fields.cardTitle } },
      header: { defaultValue: { language: 'en-US', value: fields.header } },
      hexBackgroundColor: fields.backgroundColor,
      barcode: { type: 'QR_CODE', value: 'https://tinkerdesk.dev' },
      heroImage: { sourceUri: { uri: 'https://site.example/v1/passes/images/abc.png' } },
    });
    expect(json.genericObject.logo).toBeUndefined();
    expect(json.genericObject.subheader).toBeUndefined();
  });
});

describe('exportStem', () => {
  it('makes a file name of the card title and header', () => {
    expect(exportStem(draft({ cardTitle: 'Tinkerdesk Café', header: 'Loyalty / card' }))).toBe('tinkerdesk-café-loyalty-card');
    expect(exportStem(draft({ cardTitle: '', header: '' }))).toBe('pass');
  });
});
