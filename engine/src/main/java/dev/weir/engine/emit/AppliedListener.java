package dev.weir.engine.emit;

/**
 * Told on the engine's last-stage thread each time an event has been applied: its windows updated,
 * every window its watermark advance completed fired (and, on the durable path, written to the output
 * journal). For acknowledging input, progress gauges and latency probes.
 * <p>
 * Called once per event on the hot path: an implementation must not block or allocate. Offsets are
 * increasing. Events reproduced during recovery are reported again (they are applied again).
 */
@FunctionalInterface
public interface AppliedListener
{
    /**
     * @param offset the journal offset of the event just applied.
     */
    void onApplied(long offset);
}
