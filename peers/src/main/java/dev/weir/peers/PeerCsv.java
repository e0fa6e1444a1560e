package dev.weir.peers;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Writes the events CSV of the side-by-side job ({@code event_id,event_time,key,value}, with a header): {@code events}
 * events on {@code keys} keys ({@code k0}..), chosen uniformly, event time advancing evenly over {@code seconds} of
 * event time from 2023-11-14T22:13:20Z, each event up to 99 ms out of order, 1 event in 20 up to 399 ms instead, and
 * 1 event in 500 a further 1 to 3 s late. A job with an out-of-orderness of 200 ms thus sees late events in most of
 * its 1 s windows and a few in its 60 s windows, and events that arrive exactly at the watermark's edge (a window
 * that fires when its end is at most the watermark, one millisecond either way, would take or refuse them), so a
 * comparison of two engines' rows tells their window semantics apart. Values are 0..99,999. Seeded: the same
 * arguments give the same bytes.
 *
 * <p>Usage: {@code PeerCsv FILE [EVENTS [KEYS [SECONDS [SEED]]]]}, defaults 4,000,000 events, 10,000 keys,
 * 400 s, seed 42. Single-threaded; a tool, not a library.
 */
public final class PeerCsv
{
    /** Event time of the first event (ms since the epoch). */
    static final long BASE_MS = 1_700_000_000_000L;

    private final byte[] digits = new byte[20];

    private PeerCsv()
    {
    }

    /**
     * @param args {@code FILE [EVENTS [KEYS [SECONDS [SEED]]]]}.
     * @throws IOException if the file cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length < 1)
        {
            System.err.println("usage: PeerCsv FILE [EVENTS [KEYS [SECONDS [SEED]]]]");
            System.exit(2);
        }
        final Path file = Path.of(args[0]);
        final long events = args.length > 1 ? Long.parseLong(args[1]) : 4_000_000L;
        final int keys = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
        final long seconds = args.length > 3 ? Long.parseLong(args[3]) : 400;
        final long seed = args.length > 4 ? Long.parseLong(args[4]) : 42;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20))
        {
            new PeerCsv().write(out, events, keys, seconds * 1000, seed);
        }
    }

    private void write(final OutputStream out, final long events, final int keys, final long spanMs, final long seed)
        throws IOException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        out.write("event_id,event_time,key,value\n".getBytes(StandardCharsets.US_ASCII));
        for (long i = 0; i < events; i++)
        {
            long delay = random.nextInt(20) == 0 ? random.nextInt(400) : random.nextInt(100);
            if (random.nextInt(500) == 0)
            {
                delay += 1_000 + random.nextInt(2_000);
            }
            final long time = BASE_MS + i * spanMs / events - delay;
            writeLong(out, i);
            out.write(',');
            writeLong(out, time);
            out.write(',');
            out.write('k');
            writeLong(out, random.nextInt(keys));
            out.write(',');
            writeLong(out, random.nextInt(100_000));
            out.write('\n');
        }
    }

    private void writeLong(final OutputStream out, final long value) throws IOException
    {
        long v = value;
        int i = digits.length;
        do
        {
            digits[--i] = (byte)('0' + v % 10);
            v /= 10;
        }
        while (v > 0);
        out.write(digits, i, digits.length - i);
    }
}
