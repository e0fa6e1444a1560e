package dev.weir.engine.aggregate;

/**
 * A user aggregation, computed per (key, window) beside count, sum, min and max, over a fixed number of
 * longs of state kept in the window's slot: no objects per window, nothing allocated per event.
 * <p>
 * The engine calls {@link #init} when a window opens, {@link #add} for each of its events,
 * {@link #merge} when two sessions merge (into the surviving one), and {@link #result} when the window
 * fires (the value reaches listeners as {@code WindowResult.aggregate()} and is stored with the result in
 * the output journal). The state is in checkpoints,
 * so results after a crash are those of an uninterrupted run. Implementations must be deterministic,
 * must not allocate, and are called on the engine's last-stage thread only; {@link #name()} is part of
 * the configuration a checkpoint must match.
 */
public interface Aggregation
{
    /** The most longs of state an aggregation may keep per window. */
    int MAX_STATE_LONGS = 32;

    /**
     * @return a name that identifies the aggregation and its parameters.
     */
    String name();

    /**
     * @return how many longs of state it keeps per window, 1 to {@link #MAX_STATE_LONGS}; constant.
     */
    int stateLongs();

    /**
     * @param state a new window's state, to initialise (it holds garbage).
     */
    void init(AggregationState state);

    /**
     * @param state a window's state.
     * @param value the value of an event added to the window.
     */
    void add(AggregationState state, long value);

    /**
     * @param into the surviving session's state.
     * @param from the state of a session merged into it (discarded afterwards).
     */
    void merge(AggregationState into, AggregationState from);

    /**
     * @param state a window's state.
     * @return the aggregate to report.
     */
    long result(AggregationState state);
}
