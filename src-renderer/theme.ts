/** Naive UI theme: dark, compact, one accent; sized for dense engineering tables. */
import { createLocale, enUS, type GlobalThemeOverrides } from 'naive-ui';

export const themeOverrides: GlobalThemeOverrides = {
  common: {
    primaryColor: '#3fb68b',
    primaryColorHover: '#52c89c',
    primaryColorPressed: '#2f9a74',
    primaryColorSuppl: '#3fb68b',
    fontSize: '13px',
    fontSizeSmall: '12px',
    fontSizeMedium: '13px',
    borderRadius: '4px',
    borderRadiusSmall: '3px',
    bodyColor: '#101216',
    cardColor: '#16191e',
    modalColor: '#1c2026',
    popoverColor: '#1c2026',
    tableColor: '#16191e',
    dividerColor: '#2a2f37',
    borderColor: '#2f353e',
  },
  Card: { paddingSmall: '10px 12px', titleFontSizeSmall: '13px' },
  DataTable: { thPaddingSmall: '5px 8px', tdPaddingSmall: '4px 8px', thColor: '#1a1e24', tdColor: '#16191e', tdColorHover: '#1e242b', thFontWeight: '500' },
  Alert: { padding: '8px 12px', iconSize: '18px', iconMargin: '8px 8px 0 12px', closeMargin: '8px 10px 0 0' },
};

/**
 * English with the kit's generic placeholders ("Please Input", "Please Select") taken out: an
 * input shows its own placeholder, or none.
 */
export const locale = createLocale({ Input: { placeholder: '' }, InputNumber: { placeholder: '' }, Select: { placeholder: 'Choose…' }, Cascader: { placeholder: 'Choose…' } }, enUS);
