import type { ComponentProps } from 'react';

export type IconProps = ComponentProps<'svg'> & { size?: number };

/**
 * The frame of the line icons (24×24, stroke = currentColor). Decorative (aria-hidden):
 * a button with an icon gets its name from its text or aria-label.
 */
export function Icon({ children, size = 18, ...props }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}
