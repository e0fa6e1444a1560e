package dev.weir.cli;

import java.nio.file.Path;

/**
 * A slow producer in a child JVM (for {@link RetentionUnderLoadTest}): ingests the given CSV files into a
 * minutely journal one after another, {@code weir ingest} each, pausing between them, so that under the scaled
 * test clock they land in successive cycles. Exits 1 at the first ingest that fails.
 * <p>
 * Arguments: the journal, the pause in ms, then the files. Single-threaded.
 */
final class SlowIngestChild
{
    private SlowIngestChild()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final Path journal = Path.of(args[0]);
        final long pauseMs = Long.parseLong(args[1]);
        for (int i = 2; i < args.length; i++)
        {
            final int exit = WeirCommand.execute("ingest", "--input", args[i], "--journal", journal.toString(), "--roll-cycle", "minutely");
            System.out.println("ingested " + args[i] + ": exit " + exit);
            if (exit != 0)
            {
                System.exit(1);
            }
            Thread.sleep(pauseMs);
        }
        System.exit(0);
    }
}
