/**
 * What the engine's background agents share, for an application's own Agrona agents too:
 * {@link dev.weir.engine.agent.WakeableIdleStrategy}, the idle strategy of an agent that parks long between duty cycles
 * (the checkpoint writer, the latency sampler, retention, heartbeats) and stops at once when closed. Public API.
 * <p>
 * Threading: as each class states.
 * <p>
 * Depends on Agrona only; every package of the engine may use it.
 */
package dev.weir.engine.agent;
