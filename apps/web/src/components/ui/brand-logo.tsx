import { Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { PRODUCT_NAME } from '../../config/site';
import classes from './brand-logo.module.css';

interface BrandLogoProps {
  /** 'inverse' for use on the blue backgrounds. */
  variant?: 'default' | 'inverse';
  to?: string;
  size?: 'sm' | 'md' | 'lg';
}

const MARK_SIZE = { sm: 24, md: 28, lg: 36 } as const;

export function BrandMark({ size = 28, inverse = false }: { size?: number; inverse?: boolean }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect
        width="32"
        height="32"
        rx="7"
        fill={inverse ? 'rgba(255, 255, 255, 0.16)' : 'var(--mantine-color-dart-9)'}
        stroke={inverse ? 'rgba(255, 255, 255, 0.45)' : 'none'}
      />
      <path d="M8 23 L21 10 M21 10 h-7 M21 10 v7" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      <circle cx="24.5" cy="7.5" r="2.2" fill="var(--mantine-color-dart-3)" />
    </svg>
  );
}

export function BrandLogo({ variant = 'default', to = '/', size = 'md' }: BrandLogoProps) {
  return (
    <Link to={to} className={classes.link} data-variant={variant} aria-label={`${PRODUCT_NAME} home`}>
      <Group gap={8} wrap="nowrap">
        <BrandMark size={MARK_SIZE[size]} inverse={variant === 'inverse'} />
        <Text component="span" fw={750} fz={size === 'lg' ? 26 : size === 'md' ? 20 : 17} className={classes.word}>
          {PRODUCT_NAME}
        </Text>
      </Group>
    </Link>
  );
}
