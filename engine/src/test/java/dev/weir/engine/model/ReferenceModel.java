package dev.weir.engine.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The simplest obviously-correct model of DESIGN.md's "Semantics": one loop over the events, a
 * plain list of live windows found by linear search, no performance concern. Test-only
 * brute-force model; shares no code with the engine.
 *
 * <p>Per event, in this order: judge the event against the watermark left by the events before
 * it; add it to its non-late windows (sessions merge first), firing at once every such window
 * whose end has already passed; skip it (drop or side) when all its windows are late and
 * {@code event_time + A < wm}; then advance the watermark to {@code max(wm, event_time - D)},
 * fire every changed window whose {@code end <= wm} in docs/formats.md's order: by window end, then
 * start; among tumbling or sliding windows of one start, in the order they were opened (created here);
 * among sessions, by the key's first appearance. Discard every window with {@code end + A <= wm}. At the end of input the watermark
 * becomes +infinity and every changed window fires. A heartbeat ({@link ModelEvent#heartbeat}) only advances the
 * watermark, as an event of its time would: it is not counted, windowed, late or skipped.
 *
 * <p>A firing's version is the number of earlier firings of that window; for a session, of the
 * live sessions merged into it (summed). A session already discarded ({@code end + A <= wm}) no
 * longer exists: it is never merged, so its firings do not count even if a later session's
 * bounds cover it.
 *
 * <p>With {@link ModelOptions}: after an event is added to its non-late windows and the windows whose
 * end had already passed the watermark re-fire, each of its windows whose end is still after the
 * watermark, by start, emits an {@code update} row (with updates on), then an {@code early} row if it
 * has not emitted one in its life (for sessions: neither has any session merged into it) and the early
 * condition holds on its new aggregate ({@code {count, sum, min, max}}, then the id of the event being added, for a
 * condition that reads that event's joined row). Both carry the window's current aggregate and the version its
 * next firing will carry; rows read {@code ...,version,update} and {@code ...,version,early}. Final
 * rows are those without the options.
 *
 * <p>Early rows once per key ({@link ModelOptions#onceByKey()}): when a window's condition first holds,
 * it emits its early row only if no other live window of its key that overlaps it ({@code a.start < b.end
 * && b.start < a.end}) and has not fired ({@code end > wm}) has emitted one; otherwise it is marked and
 * never emits one (nor counts as having emitted one).
 *
 * <p>With named aggregates ({@link ModelAggregates}) a window keeps the events added to it with their journal
 * offsets, and its row shows each aggregate computed afresh over them ({@link ModelCall}, {@link ModelArithmetic}).
 *
 * <p>Event times must be small enough that window ends fit in a long.
 */
public final class ReferenceModel
{
    private ReferenceModel()
    {
    }

    /**
     * Runs a whole bounded stream.
     *
     * @param events the events in arrival order.
     * @param config the window and lateness configuration.
     * @return results in emit order, late rows in arrival order, and the skip/ignore counters.
     */
    public static ModelOutput run(final List<ModelEvent> events, final ModelConfig config)
    {
        return run(events, config, ModelOptions.NONE);
    }

    /**
     * Runs a whole bounded stream with update and early rows.
     *
     * @param events  the events in arrival order.
     * @param config  the window and lateness configuration.
     * @param options update rows and the early condition.
     * @return results (final, update and early rows) in emit order, late rows in arrival order, and the counters.
     */
    public static ModelOutput run(final List<ModelEvent> events, final ModelConfig config, final ModelOptions options)
    {
        return run(events, config, options, List.of());
    }

    /**
     * Runs a whole bounded stream whose keys were first seen in the journal in the given order, which orders
     * sessions due together: a key that only events the rule left out (filtered, unmatched) brought first is
     * still first.
     *
     * @param events    the events in arrival order.
     * @param config    the window and lateness configuration.
     * @param options   update rows and the early condition.
     * @param firstSeen keys in the order the journal first saw them; keys not in it come after, as the events bring them.
     * @return results (final, update and early rows) in emit order, late rows in arrival order, and the counters.
     */
    public static ModelOutput run(final List<ModelEvent> events, final ModelConfig config, final ModelOptions options, final List<String> firstSeen)
    {
        return run(events, config, options, firstSeen, null);
    }

    /**
     * Runs a whole bounded stream with named aggregates ({@code --aggregates}): result rows read
     * {@code window_start,window_end,key,NAME1,...,NAMEn,version} (an empty value is an empty field), late rows
     * {@code event_id,event_time,key,0} (a pipeline with named aggregates has no value).
     *
     * @param events     the stream, heartbeats included.
     * @param config     the window and lateness configuration.
     * @param options    update rows; the early condition is the aggregates' own ({@link ModelAggregates#earlyWhen}) when they have one.
     * @param aggregates the named aggregates.
     * @return results in emit order, late rows in arrival order, and the counters.
     */
    public static ModelOutput run(final List<ModelEvent> events, final ModelConfig config, final ModelOptions options, final ModelAggregates aggregates)
    {
        return run(events, config, options, List.of(), aggregates);
    }

    private static ModelOutput run(
        final List<ModelEvent> events, final ModelConfig config, final ModelOptions options, final List<String> firstSeen,
        final ModelAggregates aggregates)
    {
        final Run run = new Run(config, options, aggregates);
        firstSeen.forEach(key -> run.keyOrder.putIfAbsent(key, run.keyOrder.size()));
        for (final ModelEvent event : events)
        {
            run.onEvent(event);
        }
        run.onEndOfInput();
        return new ModelOutput(run.results, run.late, run.dropped, run.sideOutput, run.ignored);
    }

    /** The state of one (key, window): its aggregate and its firing history. */
    private static final class Window
    {
        final String key;
        final long start;
        final long end;
        /** The order in which the window was opened, among every window of the run. */
        final long opened;
        long count;
        long sum;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        /** The events added to it (for sessions, to the sessions merged into it), in journal order. */
        final List<ModelEntry> entries = new ArrayList<>();
        /** How many times this window (or, for sessions, the sessions merged into it) fired. */
        long firings;
        /** True when the content changed since the last firing (or since creation). */
        boolean changed;
        /** True once it (or, for sessions, a session merged into it) emitted its early row. */
        boolean early;
        /** True once its condition held while an overlapping window of its key had a pending early row. */
        boolean earlySuppressed;

        Window(final String key, final long start, final long end, final long opened)
        {
            this.key = key;
            this.start = start;
            this.end = end;
            this.opened = opened;
        }

        void add(final ModelEntry entry)
        {
            final long value = entry.event().value();
            entries.add(entry);
            count++;
            sum += value; // wraps, as DESIGN.md asks
            min = Math.min(min, value);
            max = Math.max(max, value);
            changed = true;
        }

        void absorb(final Window other)
        {
            entries.addAll(other.entries);
            entries.sort(Comparator.comparingLong(ModelEntry::offset));
            count += other.count;
            sum += other.sum;
            min = Math.min(min, other.min);
            max = Math.max(max, other.max);
            firings += other.firings;
            changed = true;
            early |= other.early;
        }
    }

    /** One pass over one stream. */
    private static final class Run
    {
        final ModelConfig config;
        final ModelOptions options;
        /** The named aggregates, or null for the row of count, sum, min and max. */
        final ModelAggregates aggregates;
        final List<Window> live = new ArrayList<>();
        final Map<String, Integer> keyOrder = new HashMap<>();
        final List<String> results = new ArrayList<>();
        final List<String> late = new ArrayList<>();
        long dropped;
        long sideOutput;
        long ignored;
        /** Windows opened so far: the next window's {@link Window#opened}. */
        long openedWindows;
        /** Long.MIN_VALUE stands for -infinity; every comparison below is overflow-free against it. */
        long wm = Long.MIN_VALUE;
        /** The journal offset of the next event or heartbeat. */
        long offset;
        /** The event being judged, at its journal offset. */
        ModelEntry entry;

        Run(final ModelConfig config, final ModelOptions options, final ModelAggregates aggregates)
        {
            this.config = config;
            this.options = options;
            this.aggregates = aggregates;
        }

        void onEvent(final ModelEvent event)
        {
            entry = new ModelEntry(event, offset++);
            if (event.isHeartbeat())
            {
                advance(event.eventTime()); // moves the watermark as an event of that time would; nothing else
                return;
            }
            keyOrder.putIfAbsent(event.key(), keyOrder.size());

            final List<Window> nonLate = config.kind() == WindowKind.SESSION ?
                addToSession(event) : addToAlignedWindows(event);

            if (nonLate.isEmpty())
            {
                if (saturatingAdd(event.eventTime(), config.allowedLateness()) < wm)
                {
                    skip(event);
                }
                else if (windowBounds(event.eventTime()).isEmpty())
                {
                    ignored++;
                }
                else
                {
                    // A window holding t ends after t, so "all windows late" implies t + A < wm.
                    throw new AssertionError("all windows late but event not late: " + event);
                }
            }

            // Immediate (re-)firings: the window's end already passed the watermark before this event.
            nonLate.sort(Comparator.comparingLong(w -> w.start));
            for (final Window window : nonLate)
            {
                if (window.end <= wm)
                {
                    fire(window);
                }
            }
            for (final Window window : nonLate)
            {
                if (window.end > wm)
                {
                    if (options.updates())
                    {
                        results.add(row(window) + ",update");
                    }
                    if (hasEarlyCondition() && !window.early && !window.earlySuppressed && earlyConditionHolds(window, event))
                    {
                        if (options.onceByKey() && overlapsPendingEarlyRow(window))
                        {
                            window.earlySuppressed = true;
                        }
                        else
                        {
                            window.early = true;
                            results.add(row(window) + ",early");
                        }
                    }
                }
            }

            advance(event.eventTime());
        }

        boolean hasEarlyCondition()
        {
            return aggregates != null && aggregates.earlyText() != null || options.early() != null;
        }

        /** The early condition on the window's new aggregate: the named aggregates' own, else the options'. */
        boolean earlyConditionHolds(final Window window, final ModelEvent event)
        {
            if (aggregates != null && aggregates.earlyText() != null)
            {
                return aggregates.earlyConditionHolds(window.entries);
            }
            return options.early().test(new long[]{window.count, window.sum, window.min, window.max, event.eventId()});
        }

        /** Another live window of the key, overlapping this one and not yet fired, has emitted its early row. */
        boolean overlapsPendingEarlyRow(final Window window)
        {
            for (final Window w : live)
            {
                if (w != window && w.key.equals(window.key) && w.early && w.end > wm
                    && w.start < window.end && window.start < w.end)
                {
                    return true;
                }
            }
            return false;
        }

        /** The watermark after an event or a heartbeat of time t: {@code max(wm, t - D)}; fires and discards what it passes. */
        void advance(final long t)
        {
            final long candidate = t - config.outOfOrderness(); // t >= 0, D >= 0: no overflow
            if (candidate > wm)
            {
                wm = candidate;
                fireChangedWindowsEndingBy(wm);
                live.removeIf(w -> isLate(w.end));
            }
        }

        void onEndOfInput()
        {
            fireChangedWindowsEndingBy(Long.MAX_VALUE); // wm = +infinity: every window's end has passed
            live.clear();
        }

        /** Tumbling and sliding: adds the event to each of its non-late windows, creating them as needed. */
        List<Window> addToAlignedWindows(final ModelEvent event)
        {
            final List<Window> nonLate = new ArrayList<>();
            for (final long[] bounds : windowBounds(event.eventTime()))
            {
                if (isLate(bounds[1]))
                {
                    continue;
                }
                Window window = find(event.key(), bounds[0], bounds[1]);
                if (window == null)
                {
                    window = new Window(event.key(), bounds[0], bounds[1], openedWindows++);
                    live.add(window);
                }
                window.add(entry);
                nonLate.add(window);
            }
            return nonLate;
        }

        /** Sessions: merges the event's new session with every touching live session of its key, then judges it. */
        List<Window> addToSession(final ModelEvent event)
        {
            long start = event.eventTime();
            long end = Math.addExact(event.eventTime(), config.size());
            final List<Window> merged = new ArrayList<>();
            boolean grew = true;
            while (grew)
            {
                grew = false;
                for (final Window w : live)
                {
                    if (w.key.equals(event.key()) && !merged.contains(w) && w.start <= end && w.end >= start)
                    {
                        merged.add(w);
                        start = Math.min(start, w.start);
                        end = Math.max(end, w.end);
                        grew = true;
                    }
                }
            }

            if (isLate(end))
            {
                // Live sessions are never late, so a late merged session merged with nothing: drop it.
                if (!merged.isEmpty())
                {
                    throw new AssertionError("a merge produced a late session: " + event);
                }
                return new ArrayList<>();
            }

            final Window session = new Window(event.key(), start, end, openedWindows++);
            for (final Window w : merged)
            {
                session.absorb(w);
                live.remove(w);
            }
            session.add(entry);
            live.add(session);
            final List<Window> nonLate = new ArrayList<>();
            nonLate.add(session);
            return nonLate;
        }

        /** Every window {@code [start, end)} that holds time t, ascending by start; for sessions, the event's own. */
        List<long[]> windowBounds(final long t)
        {
            final List<long[]> bounds = new ArrayList<>();
            final long size = config.size();
            switch (config.kind())
            {
                case TUMBLING ->
                {
                    final long start = t - Math.floorMod(t, size);
                    bounds.add(new long[]{start, Math.addExact(start, size)});
                }
                case SLIDING ->
                {
                    final long lastStart = t - Math.floorMod(t, config.slide());
                    for (long start = lastStart; start > t - size; start -= config.slide())
                    {
                        bounds.add(0, new long[]{start, Math.addExact(start, size)});
                    }
                }
                case SESSION -> bounds.add(new long[]{t, Math.addExact(t, size)});
            }
            return bounds;
        }

        Window find(final String key, final long start, final long end)
        {
            for (final Window w : live)
            {
                if (w.key.equals(key) && w.start == start && w.end == end)
                {
                    return w;
                }
            }
            return null;
        }

        /** A window is late (gets nothing, and its state is discarded) when {@code end + A <= wm}. */
        boolean isLate(final long end)
        {
            return saturatingAdd(end, config.allowedLateness()) <= wm;
        }

        void skip(final ModelEvent event)
        {
            if (config.sideOutput())
            {
                sideOutput++;
                late.add(aggregates == null ? event.toCsv() : event.eventId() + "," + event.eventTime() + "," + event.key() + ",0");
            }
            else
            {
                dropped++;
            }
        }

        void fireChangedWindowsEndingBy(final long watermark)
        {
            final List<Window> ready = new ArrayList<>();
            for (final Window w : live)
            {
                if (w.changed && w.end <= watermark)
                {
                    ready.add(w);
                }
            }
            final Comparator<Window> amongOneStart = config.kind() == WindowKind.SESSION
                ? Comparator.comparingInt(w -> keyOrder.get(w.key))
                : Comparator.comparingLong(w -> w.opened);
            ready.sort(Comparator.<Window>comparingLong(w -> w.end)
                .thenComparingLong(w -> w.start)
                .thenComparing(amongOneStart));
            for (final Window w : ready)
            {
                fire(w);
            }
        }

        void fire(final Window w)
        {
            results.add(row(w));
            w.firings++;
            w.changed = false;
        }

        /**
         * The row {@code start,end,key,count,sum,min,max,version}, or with named aggregates
         * {@code start,end,key,NAME1,...,NAMEn,version}; the version is the next firing's.
         */
        String row(final Window w)
        {
            final String aggregate = aggregates == null
                ? w.count + "," + w.sum + "," + w.min + "," + w.max : aggregates.fields(w.entries);
            return w.start + "," + w.end + "," + w.key + "," + aggregate + "," + w.firings;
        }

        static long saturatingAdd(final long a, final long b)
        {
            final long r = a + b;
            if (((a ^ r) & (b ^ r)) < 0)
            {
                return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            return r;
        }
    }
}
