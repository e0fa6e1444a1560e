package dev.weir.engine.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each engine counter has its own type id, and the ids are stable: the table below is the contract tools
 * rely on (docs/operations.md), so changing an id fails here. A file of before type ids is still read by label.
 */
class CounterTypesTest
{
    private static final Map<String, Integer> STABLE = new LinkedHashMap<>();

    static
    {
        STABLE.put("events applied", 10101);
        STABLE.put("late events dropped", 10102);
        STABLE.put("late events to the side output", 10103);
        STABLE.put("events in no window", 10104);
        STABLE.put("duplicate events ignored", 10105);
        STABLE.put("events filtered out", 10106);
        STABLE.put("events unmatched by a join", 10119);
        STABLE.put("windows open", 10107);
        STABLE.put("windows fired", 10108);
        STABLE.put("watermark (epoch ms)", 10109);
        STABLE.put("journal offset applied", 10110);
        STABLE.put("journal offset of the last checkpoint", 10111);
        STABLE.put("checkpoints taken", 10112);
        STABLE.put("outputs written (results and late events)", 10113);
        STABLE.put("rejected input lines read (this run)", 10114);
        STABLE.put("wall clock of the last event read (epoch ms)", 10115);
        STABLE.put("wall clock of the last heartbeat read (epoch ms)", 10116);
        STABLE.put("values wrapped (--value arithmetic past the 64-bit range)", 10117);
        STABLE.put("sums wrapped (a window's sum past the 64-bit range)", 10118);
        STABLE.put("read-to-applied latency count", 10201);
        STABLE.put("read-to-applied latency p50 (ns)", 10202);
        STABLE.put("read-to-applied latency p90 (ns)", 10203);
        STABLE.put("read-to-applied latency p99 (ns)", 10204);
        STABLE.put("read-to-applied latency p99.9 (ns)", 10205);
        STABLE.put("read-to-applied latency max (ns)", 10206);
        STABLE.put("fire-to-listener latency count", 10211);
        STABLE.put("fire-to-listener latency p50 (ns)", 10212);
        STABLE.put("fire-to-listener latency p90 (ns)", 10213);
        STABLE.put("fire-to-listener latency p99 (ns)", 10214);
        STABLE.put("fire-to-listener latency p99.9 (ns)", 10215);
        STABLE.put("fire-to-listener latency max (ns)", 10216);
    }

    @TempDir
    Path dir;

    @Test
    void everyEngineCounterHasItsOwnStableTypeId()
    {
        try (MetricsFile file = MetricsFile.create(dir.resolve("metrics.dat"), EngineCounters.COUNT))
        {
            new EngineCounters(file.counters());
            final Map<String, Integer> written = new LinkedHashMap<>();
            file.reader().forEach((id, typeId, key, label) -> written.put(label, typeId));
            assertEquals(STABLE, written, "the labels and type ids, in order");
            assertEquals(STABLE.size(), Map.copyOf(written).values().stream().distinct().count(), "distinct type ids");
            for (final Map.Entry<String, Integer> each : STABLE.entrySet())
            {
                final int base = CounterTypes.histogramOf(each.getValue());
                assertEquals(each.getKey().contains("latency"), base > 0, each.getKey());
                if (base > 0)
                {
                    assertEquals(true, each.getKey().startsWith(CounterTypes.histogramName(base)), each.getKey());
                }
            }
        }
    }

    @Test
    void theRetentionCountersFollowTheEnginesWithStableTypeIdsOfTheirOwn()
    {
        final Map<String, Integer> retention = new LinkedHashMap<>();
        retention.put("retention steps", 10301);
        retention.put("retention steps failed", 10302);
        retention.put("retention: cycle files removed", 10303);
        retention.put("retention: bytes removed", 10304);
        retention.put("retention: bytes of cycle files kept", 10305);
        retention.put("retention: oldest events offset held", 10306);
        retention.put("retention: events floor (first offset a holder needs)", 10307);
        retention.put("retention: journal clock of the last step (epoch ms)", 10308);
        try (MetricsFile file = MetricsFile.create(dir.resolve("metrics.dat"), EngineCounters.COUNT + RetentionCounters.COUNT))
        {
            new EngineCounters(file.counters());
            final RetentionCounters counters = new RetentionCounters(file.counters());
            final Map<String, Integer> written = new LinkedHashMap<>();
            file.reader().forEach((id, typeId, key, label) -> written.put(label, typeId));
            final Map<String, Integer> expected = new LinkedHashMap<>(STABLE);
            expected.putAll(retention);
            assertEquals(expected, written, "the labels and type ids, in order");
            retention.values().forEach(typeId -> assertEquals(-1, CounterTypes.histogramOf(typeId), "not a histogram's: " + typeId));
            assertEquals(0, file.value(CounterTypes.RETENTION_STEPS));
            assertEquals(-1, file.value(CounterTypes.RETENTION_OLDEST_OFFSET), "none before the first step");
            assertEquals(Long.MAX_VALUE, file.value(CounterTypes.RETENTION_EVENTS_FLOOR), "nothing held before the first step");

            counters.stepped(5_000, 3, 300, 700, 40, 50);
            counters.stepped(6_000, 2, 200, 600, 60, 70);
            counters.failed();
            assertEquals(2, file.value(CounterTypes.RETENTION_STEPS));
            assertEquals(1, file.value(CounterTypes.RETENTION_FAILURES));
            assertEquals(5, file.value(CounterTypes.RETENTION_CYCLES_REMOVED), "summed");
            assertEquals(500, file.value(CounterTypes.RETENTION_BYTES_REMOVED), "summed");
            assertEquals(600, file.value(CounterTypes.RETENTION_BYTES_KEPT), "the last step's");
            assertEquals(60, file.value(CounterTypes.RETENTION_OLDEST_OFFSET), "the last step's");
            assertEquals(70, file.value(CounterTypes.RETENTION_EVENTS_FLOOR), "the last step's");
            assertEquals(6_000, file.value(CounterTypes.RETENTION_LAST_STEP), "the last step's");
        }
    }

    @Test
    void aCounterIsFoundByItsTypeIdAndAnOldFileByLabel()
    {
        try (MetricsFile file = MetricsFile.create(dir.resolve("metrics.dat"), 4))
        {
            file.counters().newCounter("journal offset applied", CounterTypes.LEGACY).setRelease(17);
            file.counters().newCounter("events applied", CounterTypes.EVENTS_APPLIED).setRelease(42);
            assertEquals(42, file.value(CounterTypes.EVENTS_APPLIED));
            assertEquals(Long.MIN_VALUE, file.value(CounterTypes.OFFSET_APPLIED), "an old file's counter has no type id of its own");
            assertEquals(17, file.value(EngineCounters.OFFSET_APPLIED), "an old file's counter, by label");
        }
        assertThrows(IllegalArgumentException.class, () -> CounterTypes.histogramName(CounterTypes.EVENTS_APPLIED));
    }
}
