package dev.weir.engine.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Window specs as text ({@link WindowSpec#parse}): the three kinds with durations as {@code DurationText} reads
 * them, what {@link WindowSpec#describe()} returns reads back as the same spec, and one message for each refusal.
 */
class WindowSpecTest
{
    @Test
    void readsTheThreeKinds()
    {
        assertEquals("tumbling:60000", WindowSpec.parse("tumbling:1m").describe());
        final SlidingWindows sliding = (SlidingWindows) WindowSpec.parse("sliding:10s/2s");
        assertEquals(10_000, sliding.size());
        assertEquals(2_000, sliding.slide());
        assertEquals(30_000, ((SessionWindows) WindowSpec.parse("session:30s")).gap());
        assertEquals(TumblingWindows.class, WindowSpec.parse("tumbling:250").getClass(), "a bare integer is milliseconds");
    }

    @Test
    void whatDescribeReturnsReadsBackAsTheSameSpec()
    {
        for (final WindowSpec spec : new WindowSpec[] {TumblingWindows.of(1_000), SlidingWindows.of(10_000, 2_500), SessionWindows.withGap(7)})
        {
            assertEquals(spec.describe(), WindowSpec.parse(spec.describe()).describe());
        }
    }

    @Test
    void refusesWhatIsNotASpec()
    {
        assertRefused("'1m' is not a window spec (use tumbling:SIZE, sliding:SIZE/SLIDE or session:GAP, e.g. tumbling:10s)", "1m");
        assertRefused("'hopping' is not a window kind (use tumbling, sliding or session)", "hopping:1m");
        assertRefused("'sliding:10s': a sliding window needs SIZE/SLIDE, e.g. sliding:10s/2s", "sliding:10s");
    }

    @Test
    void refusesDurationsThatAreNotGreaterThanZero()
    {
        assertRefused("the tumbling window size must be greater than zero: '0s'", "tumbling:0s");
        assertRefused("the tumbling window size must be greater than zero: '-1m'", "tumbling:-1m");
        assertRefused("the sliding window size must be greater than zero: '0'", "sliding:0/1s");
        assertRefused("the sliding window slide must be greater than zero: '-2s'", "sliding:10s/-2s");
        assertRefused("the session gap must be greater than zero: '0ms'", "session:0ms");
    }

    @Test
    void refusesADurationThatIsNotOneOrIsTooLong()
    {
        assertRefused("'soon' is not a duration (an integer with unit ms, s, m, h or d, e.g. 10s)", "session:soon");
        assertRefused("'10w' is not a duration: unknown unit 'w' (use ms, s, m, h or d, e.g. 10s)", "tumbling:10w");
        assertRefused("window size and slide must be <= " + WindowSpec.MAX_DURATION + " ms", "tumbling:" + (WindowSpec.MAX_DURATION + 1));
    }

    private static void assertRefused(final String message, final String text)
    {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> WindowSpec.parse(text)).getMessage());
    }
}
