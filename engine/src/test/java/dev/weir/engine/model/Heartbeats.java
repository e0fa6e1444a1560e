package dev.weir.engine.model;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Sprinkles heartbeats ({@link ModelEvent#heartbeat}) into a generated stream: between events, at the end
 * (a stream gone quiet), ahead of the newest event time (closing windows early), behind it (never moving
 * the watermark back), on window boundaries, and in runs. The same case and seed give the same stream.
 * Test-only; shares no code with the engine.
 */
public final class Heartbeats
{
    private Heartbeats()
    {
    }

    /**
     * @param c    a generated case.
     * @param seed the seed of the heartbeats.
     * @return the same case with heartbeats among its events.
     */
    public static GeneratedCase sprinkle(final GeneratedCase c, final long seed)
    {
        final SplittableRandom r = new SplittableRandom(seed);
        final int oneIn = 1 + r.nextInt(6);
        final ModelConfig config = c.config();
        final List<ModelEvent> out = new ArrayList<>();
        long newest = 0;
        if (r.nextInt(4) == 0)
        {
            out.add(ModelEvent.heartbeat(r.nextInt(60))); // before any event
        }
        for (final ModelEvent e : c.events())
        {
            out.add(e);
            newest = Math.max(newest, e.eventTime());
            if (r.nextInt(oneIn) == 0)
            {
                final int runs = r.nextInt(5) == 0 ? 2 + r.nextInt(3) : 1;
                for (int i = 0; i < runs; i++)
                {
                    out.add(ModelEvent.heartbeat(time(newest, config, r)));
                }
            }
        }
        if (r.nextBoolean())
        {
            // the stream goes quiet: heartbeats move on past the last windows, as --idle-timeout appends them
            long t = newest;
            for (int i = 0, n = 1 + r.nextInt(4); i < n; i++)
            {
                t += 1 + r.nextInt(80);
                out.add(ModelEvent.heartbeat(t));
            }
        }
        return new GeneratedCase(c.seed(), config, out);
    }

    private static long time(final long newest, final ModelConfig config, final SplittableRandom r)
    {
        final long t = switch (r.nextInt(5))
        {
            case 0 -> newest - r.nextInt(100); // behind: must not move the watermark back
            case 1 -> newest;
            case 2 -> newest + config.outOfOrderness() + r.nextInt(60); // ahead: fires windows before any later event
            case 3 ->
            {
                final long ahead = newest + r.nextInt(60);
                yield ahead - Math.floorMod(ahead, Math.max(1, config.size())); // on a boundary
            }
            default -> newest + r.nextInt(30);
        };
        return Math.max(0, t);
    }
}
