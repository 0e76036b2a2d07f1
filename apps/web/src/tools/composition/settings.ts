import { setting, useUrlSettings } from '../../shared/ui/url-settings';

/** The composition's settings, kept in the page's address. */
export const SETTINGS = {
  layout: setting.choice(['grid', 'free'] as const, 'grid'),
  cols: setting.integer(0, 0, 12),
  width: setting.integer(1600, 16, 16384),
  height: setting.integer(1200, 16, 16384),
  spacing: setting.integer(16, 0, 400),
  radius: setting.integer(12, 0, 1000),
  bg: setting.color('#ffffff'),
  transparent: setting.flag(false),
  format: setting.choice(['png', 'jpeg'] as const, 'png'),
  drag: setting.choice(['swap', 'crop'] as const, 'swap'),
};

export type CompositionSettings = ReturnType<typeof useUrlSettings<typeof SETTINGS>>[0];
export type UpdateSettings = ReturnType<typeof useUrlSettings<typeof SETTINGS>>[1];
