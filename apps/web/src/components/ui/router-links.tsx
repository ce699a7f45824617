/** Mantine components that navigate with TanStack Router (typed `to`, preloading, active state). */
import { Anchor, Button, NavLink, type AnchorProps, type ButtonProps, type NavLinkProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import { forwardRef, type ComponentPropsWithoutRef } from 'react';

const AnchorBase = forwardRef<HTMLAnchorElement, AnchorProps & ComponentPropsWithoutRef<'a'>>((props, ref) => (
  <Anchor ref={ref} {...props} />
));
AnchorBase.displayName = 'AnchorBase';

const ButtonBase = forwardRef<HTMLAnchorElement, ButtonProps & ComponentPropsWithoutRef<'a'>>((props, ref) => (
  <Button component="a" ref={ref} {...props} />
));
ButtonBase.displayName = 'ButtonBase';

const NavLinkBase = forwardRef<HTMLAnchorElement, NavLinkProps & Omit<ComponentPropsWithoutRef<'a'>, keyof NavLinkProps>>((props, ref) => (
  <NavLink component="a" ref={ref} {...props} />
));
NavLinkBase.displayName = 'NavLinkBase';

export const AnchorLink = createLink(AnchorBase);
export const ButtonLink = createLink(ButtonBase);
export const NavLinkLink = createLink(NavLinkBase);
