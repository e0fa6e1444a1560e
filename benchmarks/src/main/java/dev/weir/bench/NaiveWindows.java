package dev.weir.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.weir.engine.window.AlignedWindows;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.KeyDictionary;

/**
 * The baseline: the straightforward windowed aggregation a newcomer writes, to measure Weir against.
 * <p>
 * One thread reads the journal with {@link JournalReader#poll}, turns each key id into its string through
 * the journal's {@link KeyDictionary}, and keeps its state in {@code java.util} collections of boxed
 * objects: a {@link HashMap} from {@link WindowKey} (key string, window start) to a mutable {@link Agg},
 * and a {@link TreeMap} of windows by end for firing; sessions are a {@link TreeMap} of sessions by start
 * per key plus a {@link TreeMap} of sessions by end. It reads the wall clock once per event for a
 * processing-time stamp that nothing uses, as such code often does.
 * <p>
 * It follows the semantics of {@code DESIGN.md} for allowed lateness {@code A = 0} and the {@code drop}
 * policy: the watermark starts at -infinity and becomes {@code max(wm, t - D)} after each event; an event
 * is judged against the watermark left by the events before it; a window with {@code end <= wm} is late
 * and gets nothing; an event none of whose windows takes it is dropped if {@code t < wm}, else ignored;
 * sessions of one key merge when they overlap or touch, before the lateness check. After each event every
 * window with {@code end <= wm} fires, in order of end, and its state is discarded (with {@code A = 0} a
 * window never changes after firing, so every result is a version 0); at the end of the input every
 * window left fires. Results go to a {@link ResultConsumer}, in no order that anything relies on.
 * <p>
 * One instance per run. Not thread-safe: the thread that calls {@link #run(Path)} owns it.
 */
final class NaiveWindows
{
    /**
     * Receives each result, on the thread that runs the baseline.
     */
    @FunctionalInterface
    interface ResultConsumer
    {
        /**
         * @param count events aggregated.
         * @param sum   wrapping sum of their values.
         * @param min   least value.
         * @param max   greatest value.
         * @param start inclusive window start, ms.
         * @param end   exclusive window end, ms.
         * @param key   the key.
         */
        void onResult(long count, long sum, long min, long max, long start, long end, String key);
    }

    /**
     * One (key, window) of tumbling or sliding windows: a boxed map key.
     *
     * @param key   the key string.
     * @param start the window start, ms.
     */
    record WindowKey(String key, long start)
    {
    }

    /**
     * Count, sum, min and max of the values seen so far, plus the wall-clock time of the last update.
     * Mutable; not thread-safe.
     */
    static final class Agg
    {
        long count;
        long sum;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        long lastUpdateMillis;

        void add(final long value)
        {
            count++;
            sum += value;
            min = Math.min(min, value);
            max = Math.max(max, value);
            lastUpdateMillis = System.currentTimeMillis();
        }

        void addAll(final Agg other)
        {
            count += other.count;
            sum += other.sum;
            min = Math.min(min, other.min);
            max = Math.max(max, other.max);
            lastUpdateMillis = Math.max(lastUpdateMillis, other.lastUpdateMillis);
        }
    }

    /**
     * One open session of one key: {@code [start, end)} and its aggregate. Identity equality.
     */
    static final class Session
    {
        final String key;
        final long start;
        final long end;
        final Agg agg = new Agg();

        Session(final String key, final long start, final long end)
        {
            this.key = key;
            this.start = start;
            this.end = end;
        }
    }

    private static final int BATCH = 1_024;

    private final boolean sessions;
    private final long size;
    private final long slide;
    private final long gap;
    private final long outOfOrderness;
    private final ResultConsumer results;

    private final Map<WindowKey, Agg> windows = new HashMap<>();
    private final TreeMap<Long, List<WindowKey>> windowsByEnd = new TreeMap<>();
    private final Map<String, TreeMap<Long, Session>> sessionsByKey = new HashMap<>();
    private final TreeMap<Long, Set<Session>> sessionsByEnd = new TreeMap<>();

    private KeyDictionary keys;
    private long watermark = Long.MIN_VALUE;
    private long events;
    private long dropped;
    private long ignored;
    private long fired;

    /**
     * @param spec           tumbling, sliding or session windows.
     * @param outOfOrderness D, ms, &gt;= 0.
     * @param results        receives every result.
     */
    NaiveWindows(final WindowSpec spec, final long outOfOrderness, final ResultConsumer results)
    {
        if (spec instanceof SessionWindows)
        {
            this.sessions = true;
            this.gap = ((SessionWindows)spec).gap();
            this.size = 0;
            this.slide = 0;
        }
        else
        {
            final AlignedWindows aligned = (AlignedWindows)spec;
            this.sessions = false;
            this.gap = 0;
            this.size = aligned.size();
            this.slide = aligned.slide();
        }
        this.outOfOrderness = outOfOrderness;
        this.results = results;
    }

    /**
     * Read the whole journal, then fire every window left (end of a bounded input).
     *
     * @param journal a Weir journal directory.
     * @return the number of results emitted.
     */
    long run(final Path journal)
    {
        final JournalDirectory directory = JournalDirectory.open(journal);
        try (KeyDictionary dictionary = KeyDictionary.open(directory);
            JournalReader reader = JournalReader.open(directory))
        {
            keys = dictionary;
            while (reader.poll(this::onEvent, BATCH) > 0)
            {
                // onEvent does the work
            }
            fireUpTo(Long.MAX_VALUE);
            keys = null;
        }
        return fired;
    }

    /** @return events read. */
    long events()
    {
        return events;
    }

    /** @return events dropped as late. */
    long dropped()
    {
        return dropped;
    }

    /** @return events in no window that were not late. */
    long ignored()
    {
        return ignored;
    }

    /** @return results emitted. */
    long fired()
    {
        return fired;
    }

    private void onEvent(final long offset, final long eventId, final long eventTime, final int keyId, final long value)
    {
        events++;
        final String key = keys.name(keyId);
        if (key == null)
        {
            throw new IllegalStateException("key id " + keyId + " at offset " + offset + " is not defined");
        }
        final long watermarkBefore = watermark;
        if (sessions)
        {
            addToSession(key, eventTime, value, watermarkBefore);
        }
        else
        {
            addToWindows(key, eventTime, value, watermarkBefore);
        }
        watermark = Math.max(watermark, eventTime - outOfOrderness);
        fireUpTo(watermark);
    }

    private void addToWindows(final String key, final long eventTime, final long value, final long watermarkBefore)
    {
        // every multiple of slide s with s <= t < s + size
        final long first = Math.floorDiv(eventTime - size, slide) * slide + slide;
        final long last = Math.floorDiv(eventTime, slide) * slide;
        boolean taken = false;
        for (long start = first; start <= last; start += slide)
        {
            final long end = start + size;
            if (end <= watermarkBefore)
            {
                continue; // a late window gets nothing
            }
            final WindowKey windowKey = new WindowKey(key, start);
            Agg agg = windows.get(windowKey);
            if (agg == null)
            {
                agg = new Agg();
                windows.put(windowKey, agg);
                windowsByEnd.computeIfAbsent(end, e -> new ArrayList<>()).add(windowKey);
            }
            agg.add(value);
            taken = true;
        }
        if (!taken)
        {
            countUntaken(eventTime, watermarkBefore);
        }
    }

    private void addToSession(final String key, final long eventTime, final long value, final long watermarkBefore)
    {
        TreeMap<Long, Session> open = sessionsByKey.get(key);
        long start = eventTime;
        long end = eventTime + gap;
        final List<Session> touching = new ArrayList<>();
        if (open != null)
        {
            // open sessions do not touch each other, so ends grow with starts: walk back from the last
            // session starting at or before the new end while it still reaches the new start
            for (final Session session : open.headMap(end, true).descendingMap().values())
            {
                if (session.end < eventTime)
                {
                    break;
                }
                touching.add(session);
                start = Math.min(start, session.start);
                end = Math.max(end, session.end);
            }
        }
        if (end <= watermarkBefore)
        {
            countUntaken(eventTime, watermarkBefore); // merged first, then judged: the merged session is late
            return;
        }
        if (open == null)
        {
            open = new TreeMap<>();
            sessionsByKey.put(key, open);
        }
        final Session merged = new Session(key, start, end);
        for (final Session session : touching)
        {
            open.remove(session.start);
            final Set<Session> sameEnd = sessionsByEnd.get(session.end);
            sameEnd.remove(session);
            if (sameEnd.isEmpty())
            {
                sessionsByEnd.remove(session.end);
            }
            merged.agg.addAll(session.agg);
        }
        merged.agg.add(value);
        open.put(start, merged);
        sessionsByEnd.computeIfAbsent(end, e -> new LinkedHashSet<>()).add(merged);
    }

    private void countUntaken(final long eventTime, final long watermarkBefore)
    {
        if (eventTime < watermarkBefore)
        {
            dropped++;
        }
        else
        {
            ignored++;
        }
    }

    private void fireUpTo(final long wm)
    {
        if (sessions)
        {
            while (!sessionsByEnd.isEmpty() && sessionsByEnd.firstKey() <= wm)
            {
                for (final Session session : sessionsByEnd.pollFirstEntry().getValue())
                {
                    final TreeMap<Long, Session> open = sessionsByKey.get(session.key);
                    open.remove(session.start);
                    if (open.isEmpty())
                    {
                        sessionsByKey.remove(session.key);
                    }
                    emit(session.agg, session.start, session.end, session.key);
                }
            }
        }
        else
        {
            while (!windowsByEnd.isEmpty() && windowsByEnd.firstKey() <= wm)
            {
                final Map.Entry<Long, List<WindowKey>> due = windowsByEnd.pollFirstEntry();
                for (final WindowKey windowKey : due.getValue())
                {
                    emit(windows.remove(windowKey), windowKey.start(), due.getKey(), windowKey.key());
                }
            }
        }
    }

    private void emit(final Agg agg, final long start, final long end, final String key)
    {
        fired++;
        results.onResult(agg.count, agg.sum, agg.min, agg.max, start, end, key);
    }
}
