package dev.weir.engine.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Window specs as text ({@link WindowSpec#parse}): the three kinds with durations as {@code DurationText} reads
 * them (with a unit), what {@link WindowSpec#text()} returns reads back as the same spec, {@link WindowSpec#describe()}
 * keeps the checkpoints' unitless form, and one message for each refusal.
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
        assertEquals(250, ((TumblingWindows) WindowSpec.parse("tumbling:250ms")).size());
    }

    @Test
    void whatTextReturnsReadsBackAsTheSameSpec()
    {
        for (final WindowSpec spec : new WindowSpec[] {TumblingWindows.of(1_000), SlidingWindows.of(10_000, 2_500), SessionWindows.withGap(7)})
        {
            assertEquals(spec.describe(), WindowSpec.parse(spec.text()).describe());
        }
        assertEquals("sliding:10s/2500ms", SlidingWindows.of(10_000, 2_500).text());
    }

    @Test
    void describeKeepsTheCheckpointsUnitlessForm()
    {
        assertEquals("tumbling:10000", WindowSpec.parse("tumbling:10s").describe());
        assertEquals("sliding:60000/10000", WindowSpec.parse("sliding:1m/10s").describe());
        assertEquals("session:30000", WindowSpec.parse("session:30s").describe());
    }

    @Test
    void refusesABareNumberQuotingTheWholeSpec()
    {
        assertRefused("'tumbling:10': a duration needs a unit: write 10ms or 10s (units: ms, s, m, h, d)", "tumbling:10");
        assertRefused("'sliding:10s/2': a duration needs a unit: write 2ms or 2s (units: ms, s, m, h, d)", "sliding:10s/2");
        assertRefused("'session:30': a duration needs a unit: write 30ms or 30s (units: ms, s, m, h, d)", "session:30");
        assertRefused("'tumbling:10000': a duration needs a unit: write 10000ms or 10000s (units: ms, s, m, h, d)",
            TumblingWindows.of(10_000).describe());
    }

    @Test
    void measuresTheGapOfSlidingWindowsWhoseSlideExceedsTheirSize()
    {
        assertEquals(50_000, ((AlignedWindows) WindowSpec.parse("sliding:10s/60s")).uncoveredPerSlide());
        assertEquals(0, ((AlignedWindows) WindowSpec.parse("sliding:60s/10s")).uncoveredPerSlide());
        assertEquals(0, ((AlignedWindows) WindowSpec.parse("tumbling:1m")).uncoveredPerSlide());
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
        assertRefused("the tumbling window size must be greater than zero: '0'", "tumbling:0");
        assertRefused("the sliding window slide must be greater than zero: '-2s'", "sliding:10s/-2s");
        assertRefused("the session gap must be greater than zero: '0ms'", "session:0ms");
    }

    @Test
    void refusesADurationThatIsNotOneOrIsTooLong()
    {
        assertRefused("'soon' is not a duration (an integer with unit ms, s, m, h or d, e.g. 10s)", "session:soon");
        assertRefused("'10w' is not a duration: unknown unit 'w' (use ms, s, m, h or d, e.g. 10s)", "tumbling:10w");
        assertRefused("window size and slide must be <= " + WindowSpec.MAX_DURATION + " ms", "tumbling:" + (WindowSpec.MAX_DURATION + 1) + "ms");
    }

    private static void assertRefused(final String message, final String text)
    {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> WindowSpec.parse(text)).getMessage());
    }
}
