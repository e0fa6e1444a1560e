package dev.weir.engine.aggregate;

import dev.weir.journal.codec.ResultEncoder;
import dev.weir.journal.schema.JournalSchema;

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
 * <p>
 * An aggregation may read the whole event, not only the pipeline's value column: if it
 * {@link #readsColumns()}, the engine copies every column of each event into its ring slot and calls
 * {@link #add(AggregationState, long, EventColumns)} with a flyweight over them. The engine calls
 * {@link #bind(JournalSchema)} once, when the pipeline's configuration is concluded, so an aggregation
 * over a named column can find its index (and refuse a missing column). A pipeline may carry several
 * aggregations; each keeps its own state longs in the slot, one after the other.
 */
public interface Aggregation
{
    /** The most longs of state an aggregation may keep per window. */
    int MAX_STATE_LONGS = 32;

    /** The most aggregations one pipeline carries: as many values as a stored result holds. */
    int MAX_AGGREGATIONS = ResultEncoder.MAX_AGGREGATES;

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
     * Add an event to a window, seeing its whole event. By default {@link #add(AggregationState, long)}; an
     * aggregation that {@link #readsColumns()} overrides it.
     *
     * @param state a window's state.
     * @param value the value of an event added to the window (the pipeline's value column).
     * @param event every column of the event if {@link #readsColumns()}, else a flyweight over no columns;
     *              valid only during this call.
     */
    default void add(final AggregationState state, final long value, final EventColumns event)
    {
        add(state, value);
    }

    /**
     * @return true if {@link #add(AggregationState, long, EventColumns)} reads the event's columns: the
     *         engine then copies every column of each event into its ring slot (a cost paid per event).
     *         Constant. By default false.
     */
    default boolean readsColumns()
    {
        return false;
    }

    /**
     * @return true if {@link #add(AggregationState, long, EventColumns)} reads the event's aggregate inputs and
     *         filter verdicts ({@link EventColumns#input}, {@link EventColumns#matched}), its time and its offset:
     *         a named aggregate does. Constant. By default false.
     */
    default boolean readsInputs()
    {
        return false;
    }

    /**
     * Bind to the journal's schema, once, when the pipeline's configuration is concluded: an aggregation
     * over a named column resolves its index here. By default this aggregation, unchanged.
     *
     * @param schema the schema of the journal the pipeline reads.
     * @return the aggregation to run (this, or a bound copy); its {@link #name()} stays the same.
     * @throws IllegalArgumentException if a column it names is missing or of the wrong type; the message names
     *                                  the journal's columns.
     */
    default Aggregation bind(final JournalSchema schema)
    {
        return this;
    }

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

    /**
     * @param state a window's state.
     * @return false if the window has no value for this aggregation (outputs show an empty value; {@link #result}
     *         is then 0). By default true.
     */
    default boolean hasValue(final AggregationState state)
    {
        return true;
    }
}
