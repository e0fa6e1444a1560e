package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An in-process producer's heartbeat ({@link Pipeline#appendHeartbeat}) closes a following pipeline's
 * windows without a new event: the results carry the heartbeat's offset; no listener hears of the heartbeat
 * itself (no applied event, no late event), and a heartbeat behind the watermark changes nothing.
 */
class PipelineHeartbeatTest
{
    @TempDir
    Path dir;

    @Test
    void aHeartbeatClosesTheWindowsOfAQuietStreamAndReachesNoListener() throws Exception
    {
        final Path journal = dir.resolve("journal");
        EventJournal.openOrCreate(journal).close();
        final List<String> results = new CopyOnWriteArrayList<>();
        final List<Long> applied = new CopyOnWriteArrayList<>();
        final List<Long> late = new CopyOnWriteArrayList<>();
        try (Pipeline pipeline = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).outOfOrderness(100)
            .latePolicy(LatePolicy.SIDE)
            .onResult(r -> results.add(r.windowStart() + "," + r.count() + "," + r.sum() + " @" + r.sourceOffset()))
            .onLate(e -> late.add(e.eventId()))
            .onApplied(applied::add)
            .build().start())
        {
            final long e1 = pipeline.append(1, 10_100, "a", 5);
            final long e2 = pipeline.append(2, 10_900, "b", 7);
            final long behind = pipeline.appendHeartbeat(500); // behind the watermark: nothing
            assertTrue(pipeline.awaitOffset(behind, 120, TimeUnit.SECONDS));
            assertEquals(List.of(), results, "a heartbeat behind the watermark fires nothing");
            final long closing = pipeline.appendHeartbeat(11_100); // watermark 11,000: [10,000, 11,000) closes
            assertTrue(pipeline.awaitOffset(closing, 120, TimeUnit.SECONDS));
            assertEquals(List.of("10000,1,5 @" + closing, "10000,1,7 @" + closing), results);
            assertEquals(List.of(e1, e2), applied, "only events are applied");
            final long lateEvent = pipeline.append(3, 10_500, "a", 1);
            assertTrue(pipeline.awaitOffset(lateEvent, 120, TimeUnit.SECONDS));
            assertEquals(List.of(3L), late, "late as after an event of the heartbeat's time");
        }
    }
}
