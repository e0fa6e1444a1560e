/**
 * The engine's side of its outputs (internal): the mutable fields of a result ({@code FiredResult}) and of a late
 * event ({@code SkippedEvent}) that the window aggregator fills and a replay copies. Listeners read them through
 * {@code dev.weir.engine.emit.WindowResult} and {@code LateEvent}, which have no setters.
 * <p>
 * Threading: one owner thread per instance. Depends on the journal only.
 */
package dev.weir.engine.fired;
