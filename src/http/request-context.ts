import type { Principal } from './auth.js';
import type { World } from '../world/world.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The sandbox world this request acts on. */
    world: World;
    principal: Principal;
  }
}

export {};
