import type { ReactNode } from 'react';

/** Small inline SVG icons. They are decorative: the controls that hold them carry their own labels. */
function Svg({ size = 20, children }: { size?: number; children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}

export function SearchIcon({ size = 18 }: { size?: number }) {
  return (
    <Svg size={size}>
      <circle cx="11" cy="11" r="7" />
      <path d="M20 20l-4.2-4.2" />
    </Svg>
  );
}

export function MenuIcon({ open }: { open: boolean }) {
  return <Svg size={22}>{open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}</Svg>;
}

export function ChevronIcon() {
  return (
    <Svg size={14}>
      <path d="M6 9l6 6 6-6" />
    </Svg>
  );
}

export function ArrowRightIcon() {
  return (
    <Svg size={16}>
      <path d="M5 12h14M13 6l6 6-6 6" />
    </Svg>
  );
}

export function ClockIcon() {
  return (
    <Svg>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </Svg>
  );
}

export function ShieldIcon() {
  return (
    <Svg>
      <path d="M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6z" />
      <path d="M9 12l2 2 4-4" />
    </Svg>
  );
}

export function StoreIcon() {
  return (
    <Svg>
      <path d="M4 10v10h16V10" />
      <path d="M3 10l2-6h14l2 6c0 1.7-1.3 3-3 3s-3-1.3-3-3c0 1.7-1.3 3-3 3s-3-1.3-3-3c0 1.7-1.3 3-3 3s-3-1.3-3-3z" />
      <path d="M10 20v-5h4v5" />
    </Svg>
  );
}

export function DevicesIcon() {
  return (
    <Svg>
      <rect x="2" y="4" width="14" height="10" rx="2" />
      <path d="M6 18h6" />
      <rect x="17" y="8" width="5" height="12" rx="1.5" />
    </Svg>
  );
}

export function CloudIcon() {
  return (
    <Svg>
      <path d="M7 18h10a4 4 0 00.5-8A6 6 0 006 9.5 4.3 4.3 0 007 18z" />
    </Svg>
  );
}

export function CodeIcon() {
  return (
    <Svg>
      <path d="M8 7l-5 5 5 5M16 7l5 5-5 5M14 4l-4 16" />
    </Svg>
  );
}

export function BluetoothIcon() {
  return (
    <Svg>
      <path d="M7 7l10 10-5 4V3l5 4L7 17" />
    </Svg>
  );
}

export function MailIcon() {
  return (
    <Svg>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M3 7l9 6 9-6" />
    </Svg>
  );
}

export function BookIcon() {
  return (
    <Svg>
      <path d="M4 5a2 2 0 012-2h13v16H6a2 2 0 00-2 2z" />
      <path d="M4 19V5M8 7h7" />
    </Svg>
  );
}

/** One icon per tool category (see tools/types.ts). */
export function CategoryIcon({ category, size = 20 }: { category: string; size?: number }) {
  switch (category) {
    case 'Converters':
      return (
        <Svg size={size}>
          <path d="M4 8h13l-3-3M20 16H7l3 3" />
        </Svg>
      );
    case 'Text':
      return (
        <Svg size={size}>
          <path d="M5 6h14M5 11h14M5 16h9" />
        </Svg>
      );
    case 'Generators':
      return (
        <Svg size={size}>
          <path d="M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5L18 18M6 18l2.5-2.5M15.5 8.5L18 6" />
        </Svg>
      );
    case 'Images & documents':
      return (
        <Svg size={size}>
          <rect x="3" y="4" width="18" height="16" rx="2" />
          <circle cx="9" cy="10" r="2" />
          <path d="M21 16l-5-5-9 9" />
        </Svg>
      );
    case 'Barcodes':
      return (
        <Svg size={size}>
          <path d="M4 5v14M8 5v14M11 5v14M15 5v14M18 5v14M20 5v14" />
        </Svg>
      );
    default:
      return (
        <Svg size={size}>
          <circle cx="12" cy="12" r="8" />
        </Svg>
      );
  }
}
