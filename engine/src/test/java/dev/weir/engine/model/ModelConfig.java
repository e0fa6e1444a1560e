package dev.weir.engine.model;

import java.util.Objects;

/**
 * Window and lateness configuration for the test-only reference model. Test-only; shares no
 * code with the engine.
 *
 * @param kind            tumbling, sliding or session.
 * @param size            tumbling size, sliding size, or session gap, in ms; {@code > 0}.
 * @param slide           sliding slide in ms ({@code > 0}); ignored (and 0) for the other kinds.
 * @param outOfOrderness  D, in ms, {@code >= 0}: the watermark trails the highest event time by D.
 * @param allowedLateness A, in ms, {@code >= 0}.
 * @param sideOutput      late policy: {@code true} = side, {@code false} = drop.
 */
public record ModelConfig(
    WindowKind kind, long size, long slide, long outOfOrderness, long allowedLateness, boolean sideOutput)
{
    public ModelConfig
    {
        Objects.requireNonNull(kind, "kind");
        if (size <= 0)
        {
            throw new IllegalArgumentException("size/gap must be > 0: " + size);
        }
        if (kind == WindowKind.SLIDING && slide <= 0)
        {
            throw new IllegalArgumentException("slide must be > 0: " + slide);
        }
        if (outOfOrderness < 0 || allowedLateness < 0)
        {
            throw new IllegalArgumentException("D and A must be >= 0: D=" + outOfOrderness + " A=" + allowedLateness);
        }
    }

    public static ModelConfig tumbling(final long size, final long d, final long a, final boolean side)
    {
        return new ModelConfig(WindowKind.TUMBLING, size, 0, d, a, side);
    }

    public static ModelConfig sliding(final long size, final long slide, final long d, final long a, final boolean side)
    {
        return new ModelConfig(WindowKind.SLIDING, size, slide, d, a, side);
    }

    public static ModelConfig session(final long gap, final long d, final long a, final boolean side)
    {
        return new ModelConfig(WindowKind.SESSION, gap, 0, d, a, side);
    }

    /**
     * @return the equivalent {@code weir run} window flags (durations in ms), for failure messages.
     */
    public String toFlags()
    {
        final String window = switch (kind)
        {
            case TUMBLING -> "tumbling:" + size;
            case SLIDING -> "sliding:" + size + "/" + slide;
            case SESSION -> "session:" + size;
        };
        return "--window " + window + " --out-of-orderness " + outOfOrderness +
            " --allowed-lateness " + allowedLateness + " --late " + (sideOutput ? "side" : "drop");
    }
}
