package dev.weir.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;

/** When a quiet partition is due a heartbeat, and its time: the newest event time plus the wall time since. */
final class IdleHeartbeatTest
{
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void dueAfterTOfQuietAtTheNewestEventTimePlusTheWallTimeSince()
    {
        final IdleHeartbeat idle = new IdleHeartbeat(1_000, 500, 0);
        assertEquals(-1, idle.due(999 * MS, 10_000), "not before T");
        assertFalse(idle.quiet(999 * MS));
        assertTrue(idle.quiet(1_000 * MS));
        assertEquals(10_000 + 500 + 1_000, idle.due(1_000 * MS, 10_000), "watermark + D + the wall time since");
        idle.active(1_500 * MS);
        assertEquals(-1, idle.due(2_400 * MS, 10_000), "a record restarts the quiet period");
        assertEquals(10_000 + 500 + 1_200, idle.due(2_700 * MS, 10_000));
        idle.appended(2_700 * MS);
        assertEquals(-1, idle.due(3_600 * MS, 11_200), "again only after another T");
        assertEquals(11_200 + 500 + 1_000, idle.due(3_700 * MS, 11_200), "from the watermark the heartbeat gave");
        assertEquals(1, idle.count());
    }

    @Test
    void noneBeforeAWatermarkNorAfterTheEndAndNoTimeBeyondTheJournals()
    {
        final IdleHeartbeat idle = new IdleHeartbeat(10, 0, 0);
        assertEquals(-1, idle.due(20 * MS, Long.MIN_VALUE), "no event yet");
        assertEquals(-1, idle.due(20 * MS, Long.MAX_VALUE), "the end of input was applied");
        assertEquals(EventJournal.MAX_EVENT_TIME, idle.due(20 * MS, EventJournal.MAX_EVENT_TIME - 5));
        assertThrows(IllegalArgumentException.class, () -> new IdleHeartbeat(0, 0, 0));
    }
}
