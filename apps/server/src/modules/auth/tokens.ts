/**
 * Access tokens: short-lived HS256 JWTs (jose). Verification pins the algorithm, issuer, audience
 * and token type, and never follows key URLs from the token (RELIABILITY #7).
 */
import { ACCESS_TOKEN_TTL_SECONDS } from '@dart/contracts';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { AppError } from '../../lib/errors';

const ISSUER = 'dart';
const AUDIENCE = 'dart-api';
const TOKEN_TYPE = 'at+jwt';

export interface AccessClaims {
  userId: string;
  sessionId: string;
  clientId: string;
}

export interface TokenSigner {
  sign(claims: AccessClaims): Promise<string>;
  verify(token: string): Promise<AccessClaims>;
  ttlSeconds: number;
}

/** Verified tokens are remembered until they expire, so the signature is checked once per token. */
const VERIFIED_CACHE_LIMIT = 20_000;

export function createTokenSigner(secret: string, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): TokenSigner {
  const key = new TextEncoder().encode(secret);
  const verified = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();
  return {
    ttlSeconds,
    sign: (claims) =>
      new SignJWT({ sid: claims.sessionId, cid: claims.clientId })
        .setProtectedHeader({ alg: 'HS256', typ: TOKEN_TYPE })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key),
    verify: async (token) => {
      const hit = verified.get(token);
      if (hit) {
        if (Date.now() < hit.expiresAtMs) return hit.claims;
        verified.delete(token);
      }
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          typ: TOKEN_TYPE,
          requiredClaims: ['sub', 'exp', 'iat'],
        });
        if (typeof payload.sid !== 'string' || typeof payload.cid !== 'string' || typeof payload.sub !== 'string')
          throw new AppError('UNAUTHENTICATED', 'Authentication credentials were not provided or are invalid.');
        const claims = { userId: payload.sub, sessionId: payload.sid, clientId: payload.cid };
        if (verified.size >= VERIFIED_CACHE_LIMIT) verified.clear();
        verified.set(token, { claims, expiresAtMs: (payload.exp ?? 0) * 1000 });
        return claims;
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw new AppError('TOKEN_EXPIRED', 'Token is expired.');
        if (error instanceof AppError) throw error;
        throw new AppError('UNAUTHENTICATED', 'Authentication credentials were not provided or are invalid.');
      }
    },
  };
}
