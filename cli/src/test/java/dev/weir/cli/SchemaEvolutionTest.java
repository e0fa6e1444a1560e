package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.testsupport.ChildJvm;
import dev.weir.testsupport.JournalRows;
import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.OutputJournalContents;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Columns added to a live journal, through the command line: a journal ingested with four columns, a named
 * pipeline that follows it (stopped with SIGTERM, so it checkpoints), a second ingest whose {@code --columns}
 * add {@code channel:string=web} and {@code fee:decimal(2)=0} while another pipeline follows the journal, the
 * first pipeline resumed from its checkpoint, and a new pipeline and a replay keyed, valued and filtered by the
 * new columns over the whole journal. Every row
 * (events, output journals, exported files) must equal that of a journal created with the six columns whose
 * first events carry the defaults written out, run with the same flags. Also: a file of the four columns
 * ingested into the journal of six gets the defaults.
 */
@Tag("slow")
class SchemaEvolutionTest
{
    private static final int FIRST = 4_000;
    private static final int SECOND = 4_000;
    private static final long SEED = 29;
    private static final String[] SPEND = {"--key", "card", "--value", "amount", "--window", "tumbling:1s", "--out-of-orderness", "500ms"};
    private static final String[] CHANNELS = {"--key", "channel", "--value", "fee", "--where", "amount > 100.00", "--window", "tumbling:500ms"};
    private static final String[] REPLAY = {"--key", "channel,country", "--value", "amount + fee", "--where", "channel = 'web'",
        "--window", "tumbling:500ms"};
    private static final String[] LIVE = {"--key", "merchant", "--value", "amount", "--window", "sliding:2s/500ms", "--out-of-orderness", "500ms"};

    @TempDir
    Path dir;

    @Test
    void aPipelineResumesAcrossAddedColumnsAndANewOneUsesThemOverTheWholeJournal() throws Exception
    {
        final Path four = dir.resolve("first-four.csv");
        final Path sixDefaults = dir.resolve("first-six.csv");
        final Path second = dir.resolve("second.csv");
        AddedColumnsCsv.write(four, 0, FIRST, SEED, AddedColumnsCsv.Shape.FOUR);
        AddedColumnsCsv.write(sixDefaults, 0, FIRST, SEED, AddedColumnsCsv.Shape.SIX_DEFAULTS);
        AddedColumnsCsv.write(second, FIRST, FIRST + SECOND, SEED, AddedColumnsCsv.Shape.SIX);

        final Path evolved = dir.resolve("evolved");
        final Path reference = dir.resolve("reference");
        ok("ingest", "--input", four.toString(), "--columns", AddedColumnsCsv.FOUR, "--journal", journal(evolved));
        ok("ingest", "--input", sixDefaults.toString(), "--columns", AddedColumnsCsv.SIX, "--journal", journal(reference));
        for (final Path out : List.of(evolved, reference))
        {
            followAndStop(out, "spend", SPEND);
        }
        assertEquals(JournalSchema.parse(AddedColumnsCsv.FOUR), JournalDirectory.open(evolved.resolve("journal")).schema(),
            "the columns are the four until an ingest adds some");
        final byte[] before = Files.readAllBytes(evolved.resolve("journal").resolve(JournalDirectory.MARKER_FILE));

        final List<Process> live = new ArrayList<>();
        try
        {
            for (final Path out : List.of(evolved, reference))
            {
                live.add(follow(out, "live", LIVE)); // follows the journal while its columns are added
                awaitApplied(out, "live", live.get(live.size() - 1));
            }
            for (final Path out : List.of(evolved, reference))
            {
                final Cli added = ok("ingest", "--input", second.toString(), "--columns", AddedColumnsCsv.SIX, "--journal", journal(out));
                assertTrue(added.out().contains(String.format("%,d events appended", SECOND)), added.out());
                awaitApplied(out, "live", live.get(out == evolved ? 0 : 1));
            }
        }
        finally
        {
            for (final Process follower : live)
            {
                stop(follower);
            }
        }
        for (int i = 0; i < live.size(); i++)
        {
            final Path out = i == 0 ? evolved : reference;
            assertEquals(143, live.get(i).exitValue(), Files.readString(out.resolve("live-follow.log")));
            ok(with(List.of("run", "--journal", journal(out), "--pipeline", "live", "--results", out.resolve("live.csv").toString()), LIVE));
        }
        final JournalSchema six = JournalDirectory.open(evolved.resolve("journal")).schema();
        assertEquals("card:string,merchant:string,country:string,amount:decimal(2),channel:string=web,fee:decimal(2)=0.00", six.toString(),
            "the journal has the six columns, the added ones with their defaults");
        assertTrue(!Arrays.equals(before, Files.readAllBytes(evolved.resolve("journal").resolve(JournalDirectory.MARKER_FILE))));
        final Cli inspect = ok("inspect", journal(evolved));
        assertTrue(inspect.out().contains(" (format version 5)\n"), inspect.out()); // batched documents, whatever columns it gained
        assertTrue(inspect.out().contains("columns      " + six + "\n"), inspect.out());
        assertTrue(inspect.out().lines().anyMatch(l -> l.matches("schema +generation 1: " + AddedColumnsCsv.FOUR.replace("(", "\\(")
            .replace(")", "\\)") + " \\(created\\)")), inspect.out());
        assertTrue(inspect.out().lines().anyMatch(l -> l.matches("schema +generation 2: added channel:string=web,fee:decimal\\(2\\)=0\\.00 at "
            + "\\d{4}-\\d\\d-\\d\\dT.*Z")), inspect.out());

        for (final Path out : List.of(evolved, reference))
        {
            final Cli resumed = ok(with(List.of("run", "--journal", journal(out), "--pipeline", "spend", "--results", out.resolve("spend.csv")
                .toString()), SPEND));
            assertTrue(resumed.out().contains("\nresumed         from the checkpoint at offset " + lastEventOf(FIRST, out) + " "), out + ": " + resumed.out());
            assertTrue(resumed.out().contains("\nevents          " + String.format("%,d", SECOND) + "\n"),
                out + ": only the events after the checkpoint are processed: " + resumed.out());
            ok(with(List.of("run", "--journal", journal(out), "--pipeline", "channels", "--results", out.resolve("channels.csv").toString()),
                CHANNELS));
            ok(with(List.of("replay", "--journal", journal(out), "--results", out.resolve("replay.csv").toString()), REPLAY));
        }

        KillHarness.assertSameLines("the events, every column", JournalRows.events(reference.resolve("journal")),
            JournalRows.events(evolved.resolve("journal")));
        final String first = JournalRows.events(evolved.resolve("journal")).get(0);
        assertTrue(first.startsWith("0|") && first.endsWith("|web|0.00"), "an earlier event reads the defaults: " + first);
        for (final String pipeline : List.of("spend", "channels", "live"))
        {
            final String key = pipeline.equals("spend") ? "card" : pipeline.equals("live") ? "merchant" : "channel";
            KillHarness.assertSameLines(pipeline + ": the output journal", OutputJournalContents.outputs(reference.resolve("journal"), pipeline, key),
                OutputJournalContents.outputs(evolved.resolve("journal"), pipeline, key));
        }
        for (final String file : List.of("spend.csv", "channels.csv", "replay.csv", "live.csv"))
        {
            final List<String> rows = Files.readAllLines(evolved.resolve(file));
            assertTrue(rows.size() > 20, file + ": " + rows.size() + " rows");
            KillHarness.assertSameLines(file, Files.readAllLines(reference.resolve(file)), rows);
        }
        final long firstOfSecond = 100_000L + FIRST - 3_000;
        assertTrue(Files.readAllLines(evolved.resolve("channels.csv")).stream().skip(1)
                .anyMatch(r -> r.contains(",web,") && Long.parseLong(r.substring(0, r.indexOf(','))) < firstOfSecond),
            "the new pipeline reads the default over the events from before the columns were added");
        assertTrue(Files.readAllLines(evolved.resolve("replay.csv")).stream().skip(1)
                .anyMatch(r -> Long.parseLong(r.substring(0, r.indexOf(','))) < firstOfSecond),
            "the replay filtered on channel = 'web' keeps the earlier events, which read the default");
    }

    @Test
    void aFileOfTheOlderColumnsGetsTheDefaults() throws IOException
    {
        final Path four = dir.resolve("first-four.csv");
        final Path second = dir.resolve("second.csv");
        final Path third = dir.resolve("third-four.csv");
        final Path thirdDefaults = dir.resolve("third-six.csv");
        AddedColumnsCsv.write(four, 0, 500, SEED, AddedColumnsCsv.Shape.FOUR);
        AddedColumnsCsv.write(second, 500, 1_000, SEED, AddedColumnsCsv.Shape.SIX);
        AddedColumnsCsv.write(third, 1_000, 1_500, SEED, AddedColumnsCsv.Shape.FOUR);
        AddedColumnsCsv.write(thirdDefaults, 1_000, 1_500, SEED, AddedColumnsCsv.Shape.SIX_DEFAULTS);
        final Path evolved = dir.resolve("evolved");
        final Path reference = dir.resolve("reference");
        ok("ingest", "--input", four.toString(), "--columns", AddedColumnsCsv.FOUR, "--journal", journal(evolved));
        ok("ingest", "--input", second.toString(), "--columns", AddedColumnsCsv.SIX, "--journal", journal(evolved));
        ok("ingest", "--input", four.toString(), "--columns", AddedColumnsCsv.FOUR, "--journal", journal(reference));
        ok("ingest", "--input", second.toString(), "--columns", AddedColumnsCsv.SIX, "--journal", journal(reference));

        final Cli older = ok("ingest", "--input", third.toString(), "--columns", AddedColumnsCsv.FOUR, "--journal", journal(evolved));
        assertTrue(older.out().contains("500 events appended"), older.out());
        ok("ingest", "--input", thirdDefaults.toString(), "--journal", journal(reference));

        assertEquals(JournalSchema.parse(AddedColumnsCsv.SIX), JournalDirectory.open(evolved.resolve("journal")).schema(),
            "the journal keeps its columns");
        KillHarness.assertSameLines("an older writer's events carry the defaults", JournalRows.events(reference.resolve("journal")),
            JournalRows.events(evolved.resolve("journal")));
        final Cli again = ok("ingest", "--input", third.toString(), "--columns", AddedColumnsCsv.FOUR, "--journal", journal(evolved));
        assertTrue(again.out().contains("0 events appended"), "a rerun appends nothing: " + again.out());

        final Cli withoutColumns = Cli.run("ingest", "--input", third.toString(), "--journal", journal(evolved));
        assertEquals(2, withoutColumns.exit(), "without --columns the file must have the journal's header: " + withoutColumns.out());
        assertTrue(withoutColumns.err().contains("does not start with the header 'event_id,event_time,card,merchant,country,amount,channel,fee'"),
            withoutColumns.err());
    }

    @Test
    void aJournalOfTheDefaultColumnsGainsAColumnAndItsKeyKeepsItsRule() throws IOException
    {
        final Path journal = dir.resolve("journal");
        final Path first = dir.resolve("first.csv");
        Files.writeString(first, "event_id,event_time,key,value\n1,1000,a,1\n2,2000,b c,2\n");
        final Path second = dir.resolve("second.csv");
        Files.writeString(second, "event_id,event_time,key,value,channel\n3,3000,a,3,pos\n4,4000,b c,4,pos\n5,5000,d,5,app\n");
        final Path third = dir.resolve("third.csv");
        Files.writeString(third, "event_id,event_time,key,value\n6,6000,e,6\n7,7000,b c,7\n");
        ok("ingest", "--input", first.toString(), "--journal", journal.toString());

        final Cli added = ok("ingest", "--input", second.toString(), "--columns", "key:string,value:long,channel:string=web",
            "--journal", journal.toString());
        assertTrue(added.out().contains("2 events appended to journal " + journal + ", 1 rejected"), added.out());
        final Cli older = ok("ingest", "--input", third.toString(), "--columns", "key:string,value:long", "--journal", journal.toString());
        assertTrue(older.out().contains("1 events appended to journal " + journal + ", 1 rejected"), older.out());

        final List<String> rejected = Files.readAllLines(dir.resolve("first.csv.rejected.csv"));
        assertEquals(2, rejected.size(), rejected.toString());
        final String reason = rejected.get(1).substring(2, rejected.get(1).indexOf(",\""));
        assertEquals(List.of("line,reason,content", "3," + reason + ",\"4,4000,b c,4,pos\""),
            Files.readAllLines(dir.resolve("second.csv.rejected.csv")), "the key rule of the default columns, with its reason");
        assertEquals(List.of("line,reason,content", "3," + reason + ",\"7,7000,b c,7\""), Files.readAllLines(dir.resolve("third.csv.rejected.csv")));
        assertEquals(List.of("1|1000|a|1|web", "3|3000|a|3|pos", "5|5000|d|5|app", "6|6000|e|6|web"), JournalRows.events(journal));
    }

    /** Run a pipeline that follows the journal until it has applied its last event, then stop it with SIGTERM. */
    private void followAndStop(final Path out, final String pipeline, final String... flags) throws Exception
    {
        final Process follower = follow(out, pipeline, flags);
        try
        {
            awaitApplied(out, pipeline, follower);
        }
        finally
        {
            stop(follower);
        }
        assertEquals(143, follower.exitValue(), Files.readString(out.resolve(pipeline + "-follow.log")));
    }

    /** @return a child running a pipeline that follows the journal. */
    private static Process follow(final Path out, final String pipeline, final String... flags) throws IOException
    {
        final List<String> args = new ArrayList<>(List.of("run", "--journal", journal(out), "--pipeline", pipeline, "--follow",
            "--results", out.resolve(pipeline + ".csv").toString()));
        args.addAll(List.of(flags));
        return new ProcessBuilder(ChildJvm.weir("256m", args.toArray(new String[0]))).redirectErrorStream(true)
            .redirectOutput(out.resolve(pipeline + "-follow.log").toFile()).start();
    }

    /** Wait until a follower has applied the journal's last event. */
    private static void awaitApplied(final Path out, final String pipeline, final Process follower) throws Exception
    {
        final long last = lastEventOf(Integer.MAX_VALUE, out);
        final JournalDirectory directory = JournalDirectory.open(out.resolve("journal")).pipeline(pipeline);
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (FollowerProgress.appliedOffset(directory, follower.pid()) < last)
        {
            assertTrue(follower.isAlive() && System.nanoTime() < deadline,
                "the follower applies the journal:\n" + Files.readString(out.resolve(pipeline + "-follow.log")));
            follower.waitFor(20, TimeUnit.MILLISECONDS);
        }
    }

    /** Stop a follower with SIGTERM: it checkpoints, exports and exits 143. */
    private static void stop(final Process follower) throws InterruptedException
    {
        follower.destroy();
        assertTrue(follower.waitFor(2, TimeUnit.MINUTES), "the follower stops on SIGTERM");
    }

    /** @return the offset of the last of the first {@code events} events of the journal. */
    private static long lastEventOf(final int events, final Path out)
    {
        final long[] found = {-1};
        final long[] seen = {0};
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(out.resolve("journal"))))
        {
            while (reader.poll((offset, event) ->
            {
                if (seen[0]++ < events)
                {
                    found[0] = offset;
                }
            }, 4096) > 0)
            {
                // drain
            }
        }
        return found[0];
    }

    private static String journal(final Path out)
    {
        return out.resolve("journal").toString();
    }

    private static String[] with(final List<String> args, final String... flags)
    {
        final List<String> all = new ArrayList<>(args);
        all.addAll(List.of(flags));
        return all.toArray(new String[0]);
    }

    private static Cli ok(final String... args)
    {
        final Cli cli = Cli.run(args);
        assertEquals(0, cli.exit(), String.join(" ", args) + ":\n" + cli.out() + cli.err());
        return cli;
    }
}
