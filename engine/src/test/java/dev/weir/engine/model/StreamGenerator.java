package dev.weir.engine.model;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded generator of small random streams and matching configurations, tuned so that window
 * edges happen often: windows and gaps of 1..50 ms, event times in 0..500, 0..60 events.
 * The same seed and kind always give the same case. Test-only; shares no code with the engine.
 *
 * <p>Covers: key pools of 1..100,000 keys (mostly small, so keys repeat; sometimes one key);
 * bounded disorder plus some events far behind; unique event ids; negative and occasionally huge
 * values (the sum wraps); times near 0 (sliding windows starting below zero); times exactly on
 * window boundaries; D = 0, small D and D beyond the stream's span; A = 0 and A &gt; 0; both late
 * policies; slide &lt; size, = size and &gt; size; sessions re-merging after they fired.
 */
public final class StreamGenerator
{
    /** Largest event time generated. */
    public static final long MAX_TIME = 500;
    /** Largest number of events in one stream. */
    public static final int MAX_EVENTS = 60;
    /** Largest window size, slide or session gap. */
    public static final int MAX_SIZE = 50;
    /** Largest key pool. */
    public static final int MAX_KEYS = 100_000;

    private StreamGenerator()
    {
    }

    /**
     * @param seed the seed; the same seed and kind give the same case.
     * @param kind the window kind of the configuration.
     * @return a random configuration of that kind and a random stream that exercises it.
     */
    public static GeneratedCase generate(final long seed, final WindowKind kind)
    {
        final SplittableRandom r = new SplittableRandom(seed);
        final ModelConfig config = randomConfig(kind, r);
        return new GeneratedCase(seed, config, randomEvents(config, r));
    }

    /**
     * @param kind the window kind.
     * @param r    the source of randomness.
     * @return a random configuration of that kind.
     */
    public static ModelConfig randomConfig(final WindowKind kind, final SplittableRandom r)
    {
        final long size = 1 + r.nextInt(MAX_SIZE);
        final long d = switch (r.nextInt(8))
        {
            case 0, 1 -> 0;
            case 2 -> MAX_TIME + 1 + r.nextInt(500); // beyond the span: nothing fires before the end
            case 3 -> 1 + r.nextInt(100);
            default -> 1 + r.nextInt(20);
        };
        final long a = switch (r.nextInt(4))
        {
            case 0, 1 -> 0;
            case 2 -> 1 + r.nextInt(20);
            default -> 1 + r.nextInt(200);
        };
        final boolean side = r.nextBoolean();
        return switch (kind)
        {
            case TUMBLING -> ModelConfig.tumbling(size, d, a, side);
            case SLIDING -> ModelConfig.sliding(size, randomSlide(size, r), d, a, side);
            case SESSION -> ModelConfig.session(size, d, a, side);
        };
    }

    private static long randomSlide(final long size, final SplittableRandom r)
    {
        return switch (r.nextInt(6))
        {
            case 0 -> size;                         // degenerates to tumbling
            case 1 -> size + 1 + r.nextInt(20);     // gaps between windows: events in no window
            case 2 -> divisorOf(size, r);           // the usual case: size a multiple of slide
            default -> 1 + r.nextInt((int)size);    // anything up to size
        };
    }

    private static long divisorOf(final long size, final SplittableRandom r)
    {
        final List<Long> divisors = new ArrayList<>();
        for (long d = 1; d <= size; d++)
        {
            if (size % d == 0)
            {
                divisors.add(d);
            }
        }
        return divisors.get(r.nextInt(divisors.size()));
    }

    private static List<ModelEvent> randomEvents(final ModelConfig config, final SplittableRandom r)
    {
        final int n = r.nextInt(MAX_EVENTS + 1);
        final int pool = keyPoolSize(r);
        final int keyStyle = r.nextInt(4);
        final boolean hugeValues = r.nextInt(4) == 0;
        final long span = 1 + r.nextInt((int)MAX_TIME);
        final long maxStep = Math.max(1, 2 * span / Math.max(1, n));
        final long disorder = r.nextInt(4) == 0 ? 0 : r.nextInt(40);
        final int lateOneIn = 5 + r.nextInt(20);
        final int boundaryOneIn = 2 + r.nextInt(6);
        final long[] units = config.kind() == WindowKind.SLIDING ?
            new long[]{config.size(), config.slide()} : new long[]{config.size()};

        final List<ModelEvent> events = new ArrayList<>(n);
        long cursor = r.nextInt(4) == 0 ? 0 : r.nextInt(20); // near 0: sliding windows start below zero
        long previousTime = cursor;
        long id = 1 + r.nextInt(1000);
        for (int i = 0; i < n; i++)
        {
            cursor = Math.min(MAX_TIME, cursor + r.nextLong(maxStep + 1));
            long t = cursor - (disorder == 0 ? 0 : r.nextLong(disorder + 1));
            if (r.nextInt(lateOneIn) == 0)
            {
                t -= 30 + r.nextInt(300); // truly late: far behind the watermark
            }
            if (r.nextInt(boundaryOneIn) == 0)
            {
                final long unit = units[r.nextInt(units.length)];
                t -= Math.floorMod(t, unit); // exactly on a window start (= the previous window's end)
            }
            if (r.nextInt(10) == 0)
            {
                t = previousTime; // ties
            }
            t = Math.max(0, Math.min(MAX_TIME, t));
            previousTime = t;
            events.add(new ModelEvent(id, t, key(r.nextInt(pool), keyStyle), randomValue(hugeValues, r)));
            id += 1 + r.nextInt(3);
        }
        return events;
    }

    private static int keyPoolSize(final SplittableRandom r)
    {
        return switch (r.nextInt(10))
        {
            case 0, 1 -> 1;
            case 2, 3, 4, 5 -> 2 + r.nextInt(4);
            case 6, 7 -> 6 + r.nextInt(45);
            case 8 -> 51 + r.nextInt(1000);
            default -> 1 + r.nextInt(MAX_KEYS);
        };
    }

    /** A key in {@code [A-Za-z0-9_-]{1,64}}, in one of a few shapes. */
    private static String key(final int index, final int style)
    {
        return switch (style)
        {
            case 0 -> Character.toString("abcdefghijklmnopqrstuvwxyz".charAt(index % 26)) +
                (index < 26 ? "" : Integer.toString(index / 26));
            case 1 -> "user_" + index + "-X";
            case 2 -> padTo64("K" + index + "_");
            default -> "k" + index;
        };
    }

    private static String padTo64(final String prefix)
    {
        final StringBuilder sb = new StringBuilder(prefix);
        while (sb.length() < 64)
        {
            sb.append('-');
        }
        return sb.toString();
    }

    private static long randomValue(final boolean hugeValues, final SplittableRandom r)
    {
        if (hugeValues)
        {
            switch (r.nextInt(6))
            {
                case 0:
                    return Long.MAX_VALUE / 2 + r.nextInt(3); // two of these overflow the sum
                case 1:
                    return Long.MIN_VALUE / 2 - r.nextInt(3);
                case 2:
                    return r.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
                default:
                    break;
            }
        }
        return r.nextInt(2001) - 1000;
    }
}
