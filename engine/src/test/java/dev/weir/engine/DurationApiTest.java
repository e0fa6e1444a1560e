package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.time.Duration;

import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;

/**
 * Every time span of the Java API is a {@link Duration}; the overloads of bare milliseconds remain, deprecated, and
 * mean the same.
 */
class DurationApiTest
{
    @Test
    void durationsConfigureWhatMillisecondsDid()
    {
        assertEquals(TumblingWindows.of(60_000).describe(), TumblingWindows.of(Duration.ofMinutes(1)).describe());
        assertEquals(SlidingWindows.of(60_000, 10_000).describe(), SlidingWindows.of(Duration.ofMinutes(1), Duration.ofSeconds(10)).describe());
        assertEquals(SessionWindows.withGap(250).describe(), SessionWindows.withGap(Duration.ofMillis(250)).describe());
        final String millis = Weir.pipeline().window(TumblingWindows.of(10_000)).outOfOrderness(5_000).allowedLateness(2_000)
            .concludeFor(JournalSchema.DEFAULT).describe();
        final String durations = Weir.pipeline().window(TumblingWindows.of(Duration.ofSeconds(10))).outOfOrderness(Duration.ofSeconds(5))
            .allowedLateness(Duration.ofSeconds(2)).concludeFor(JournalSchema.DEFAULT).describe();
        assertEquals(millis, durations);
        assertTrue(durations.contains("outOfOrderness=5000 allowedLateness=2000"), durations);
    }

    @Test
    void aSpanThatIsNotWholeMillisecondsOrOutOfRangeIsRefusedByName()
    {
        assertEquals("window size must be a whole number of milliseconds: PT0.0005S",
            assertThrows(IllegalArgumentException.class, () -> TumblingWindows.of(Duration.ofNanos(500_000))).getMessage());
        assertEquals("window slide must be a whole number of milliseconds: PT1.0000001S",
            assertThrows(IllegalArgumentException.class, () -> SlidingWindows.of(Duration.ofSeconds(10), Duration.ofNanos(1_000_000_100))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SessionWindows.withGap(Duration.ZERO)).getMessage().startsWith("session gap must be > 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Weir.pipeline().outOfOrderness(Duration.ofSeconds(-1))).getMessage()
            .startsWith("out-of-orderness must be between 0 and"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Weir.pipeline().allowedLateness(Duration.ofSeconds(Long.MAX_VALUE))).getMessage()
            .startsWith("allowed lateness is too long"));
        assertThrows(NullPointerException.class, () -> TumblingWindows.of((Duration)null));
    }

    @Test
    void theMillisecondOverloadsAreDeprecated() throws NoSuchMethodException
    {
        final Method[] overloads = {
            TumblingWindows.class.getMethod("of", long.class),
            SlidingWindows.class.getMethod("of", long.class, long.class),
            SessionWindows.class.getMethod("withGap", long.class),
            PipelineBuilder.class.getMethod("outOfOrderness", long.class),
            PipelineBuilder.class.getMethod("allowedLateness", long.class)};
        for (final Method overload : overloads)
        {
            assertTrue(overload.isAnnotationPresent(Deprecated.class), overload + " is not deprecated");
        }
    }
}
