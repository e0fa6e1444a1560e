package dev.weir.engine.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics file: a reader mapping it separately sees the writer's counters and labels; a missing,
 * foreign or truncated file is refused; creating replaces a previous run's file.
 */
class MetricsFileTest
{
    @TempDir
    Path dir;

    @Test
    void aSeparateMappingSeesTheCountersAndTheirLabels()
    {
        final Path file = dir.resolve("metrics.dat");
        try (MetricsFile writer = MetricsFile.create(file, 4); MetricsFile reader = MetricsFile.open(file))
        {
            final AtomicCounter events = writer.counters().newCounter("events applied", CounterTypes.EVENTS_APPLIED);
            events.setRelease(42);
            final Map<String, Long> seen = read(reader);
            assertEquals(Map.of("events applied", 42L), seen);
            events.setRelease(43);
            assertEquals(43L, read(reader).get("events applied"), "live: the reader sees later values");
            assertEquals(ProcessHandle.current().pid(), reader.pid());
            assertTrue(reader.startedMillis() <= System.currentTimeMillis());
        }
    }

    @Test
    void theEngineCountersAllHaveLabels()
    {
        final Path file = dir.resolve("metrics.dat");
        try (MetricsFile writer = MetricsFile.create(file, EngineCounters.COUNT); MetricsFile reader = MetricsFile.open(file))
        {
            new EngineCounters(writer.counters());
            assertEquals(EngineCounters.COUNT, read(reader).size());
        }
    }

    @Test
    void createReplacesAPreviousRunsFile()
    {
        final Path file = dir.resolve("metrics.dat");
        try (MetricsFile first = MetricsFile.create(file, 2))
        {
            first.counters().newCounter("old", CounterTypes.LEGACY).setRelease(7);
        }
        try (MetricsFile second = MetricsFile.create(file, 2); MetricsFile reader = MetricsFile.open(file))
        {
            assertEquals(Map.of(), read(reader));
        }
    }

    @Test
    void aMissingForeignOrTruncatedFileIsRefused() throws IOException
    {
        assertThrows(IllegalStateException.class, () -> MetricsFile.open(dir.resolve("missing.dat")));
        final Path foreign = dir.resolve("foreign.dat");
        Files.write(foreign, new byte[4096]);
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> MetricsFile.open(foreign));
        assertTrue(ex.getMessage().contains("not a Weir metrics file"), ex.getMessage());
        final Path truncated = dir.resolve("truncated.dat");
        try (MetricsFile writer = MetricsFile.create(truncated, 4))
        {
            writer.counters();
        }
        Files.write(truncated, java.util.Arrays.copyOf(Files.readAllBytes(truncated), 200));
        assertThrows(IllegalStateException.class, () -> MetricsFile.open(truncated));
    }

    private static Map<String, Long> read(final MetricsFile file)
    {
        final Map<String, Long> values = new HashMap<>();
        file.reader().forEach((id, label) -> values.put(label, file.reader().getCounterValue(id)));
        return values;
    }
}
