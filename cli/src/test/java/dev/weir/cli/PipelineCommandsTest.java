package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.weir.journal.JournalDirectory;
import dev.weir.testsupport.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --pipeline NAME}: two {@code weir run}s with other keys and windows on one journal each keep their own
 * checkpoints and output journal (under {@code pipelines/NAME/}) and give the results of the same flags run alone;
 * {@code weir inspect} lists them with their lag and details; {@code weir stat} and {@code weir check} read one; and a second
 * run of a pipeline that a following {@code weir run} holds is refused, while another pipeline runs beside it.
 */
class PipelineCommandsTest
{
    private static final String COLUMNS = "card:string,merchant:string,amount:decimal(2),fee:long";
    private static final String[] CARD_FLAGS = {"--key", "card", "--value", "amount", "--window", "sliding:10s/2s", "--out-of-orderness", "1s"};
    private static final String[] MERCHANT_FLAGS = {"--key", "merchant", "--value", "fee", "--window", "tumbling:5s", "--out-of-orderness", "500ms"};
    private static final long TIMEOUT_S = 120;

    @TempDir
    Path dir;

    @Test
    void twoNamedPipelinesOnOneJournalEachGiveTheResultsOfTheirFlagsRunAlone() throws IOException
    {
        final List<String> lines = payments(4_000, 41);
        final Path first = write("first.csv", lines.subList(0, 2_501));
        final List<String> rest = new ArrayList<>(List.of(lines.get(0)));
        rest.addAll(lines.subList(2_501, lines.size()));
        final Path second = write("second.csv", rest);

        final String shared = dir.resolve("payments").toString();
        final String aloneCards = dir.resolve("alone-cards").toString();
        final String aloneMerchants = dir.resolve("alone-merchants").toString();
        for (final String journal : List.of(shared, aloneCards, aloneMerchants))
        {
            run("ingest", "--input", first.toString(), "--columns", COLUMNS, "--journal", journal);
        }
        runPipeline(shared, "cards", CARD_FLAGS, "cards.csv");
        runPipeline(shared, "merchants", MERCHANT_FLAGS, "merchants.csv");
        runPipeline(aloneCards, null, CARD_FLAGS, "alone-cards.csv");
        runPipeline(aloneMerchants, null, MERCHANT_FLAGS, "alone-merchants.csv");

        final JournalDirectory journal = JournalDirectory.open(Path.of(shared));
        assertEquals(List.of("cards", "merchants"), journal.pipelines(), "the default pipeline never ran");
        assertTrue(Files.isDirectory(Path.of(shared, "pipelines", "cards", "checkpoints")));
        assertTrue(Files.isRegularFile(Path.of(shared, "pipelines", "merchants", "metrics.dat")));
        assertFalse(Files.exists(Path.of(shared, "checkpoints")), "the default pipeline's files are untouched");

        for (final String j : List.of(shared, aloneCards, aloneMerchants))
        {
            run("ingest", "--input", second.toString(), "--journal", j);
        }
        final Cli behind = run("inspect", shared);
        assertTrue(behind.out().contains("pipelines    cards, merchants"), behind.out());
        final long added = rest.size() - 1;
        assertTrue(behind.out().matches("(?s).*\\n  cards +checkpoint at offset \\d+, lag " + String.format("%,d", added)
            + " events; sliding:10000/2000 outOfOrderness=1000 .* key=card value=amount\\n.*"), behind.out());

        // each bounded run ended its input: the second ones resume after it as asked (the new events are late for each)
        final Cli resumed = runPipeline(shared, "cards", afterEnd(CARD_FLAGS), "cards.csv");
        assertTrue(resumed.out().contains("esum"), "the second run resumes from its own checkpoint:\n" + resumed.out());
        runPipeline(shared, "merchants", afterEnd(MERCHANT_FLAGS), "merchants.csv");
        runPipeline(aloneCards, null, afterEnd(CARD_FLAGS), "alone-cards.csv");
        runPipeline(aloneMerchants, null, afterEnd(MERCHANT_FLAGS), "alone-merchants.csv");

        final List<String> cards = Files.readAllLines(dir.resolve("cards.csv"));
        final List<String> merchants = Files.readAllLines(dir.resolve("merchants.csv"));
        assertTrue(cards.size() > 100 && merchants.size() > 20 && cards.get(0).contains("card") && merchants.get(0).contains("merchant"),
            cards.get(0) + " / " + merchants.get(0));
        assertEquals(Files.readAllLines(dir.resolve("alone-cards.csv")), cards);
        assertEquals(Files.readAllLines(dir.resolve("alone-merchants.csv")), merchants);

        final Cli inspect = run("inspect", shared);
        assertTrue(!inspect.out().contains("checkpoint   none") && inspect.out().contains("--- pipeline cards ---")
            && inspect.out().contains("--- pipeline merchants ---"), "each pipeline's detail, not the default's, which never ran:\n" + inspect.out());
        assertTrue(inspect.out().matches("(?s).*\\n  cards +checkpoint at offset \\d+, lag 0 events; sliding:10000/2000 .* key=card value=amount\\n"
            + "  merchants +checkpoint at offset \\d+, lag 0 events; tumbling:5000 outOfOrderness=500 .* key=merchant value=fee\\n.*"), inspect.out());
        final Cli one = run("inspect", shared, "--pipeline", "merchants");
        assertTrue(one.out().contains("pipeline     tumbling:5000"), one.out());
        assertTrue(one.out().matches("(?s).*output       [1-9][0-9,]* results.*"), one.out());

        final Cli stat = run("stat", shared, "--pipeline", "cards", "--once");
        assertTrue(stat.out().contains("(pipeline cards)") && stat.out().contains(String.format("%,d", lines.size() - 1)), stat.out());
        final Cli check = Cli.run("check", "--journal", shared, "--pipeline", "merchants");
        assertTrue(check.out().contains("of " + String.format("%,d", lines.size() - 1) + " events"), check.out() + check.err());

        for (final String[] refused : new String[][] {{"stat", shared, "--pipeline", "nope", "--once"}, {"inspect", shared, "--pipeline", "nope"},
            {"check", "--journal", shared, "--pipeline", "nope"}, {"stat", shared, "--pipeline", "Bad/Name", "--once"}})
        {
            final Cli cli = Cli.run(refused);
            assertEquals(2, cli.exit(), String.join(" ", refused) + "\n" + cli.out() + cli.err());
            assertTrue(cli.err().contains("cards, merchants") || cli.err().contains("[a-z0-9]"), cli.err());
        }
        final Cli badName = Cli.run("run", "--journal", shared, "--pipeline", "Cards", "--window", "tumbling:1s", "--results",
            dir.resolve("x.csv").toString());
        assertEquals(2, badName.exit(), badName.err());
        assertTrue(badName.err().contains("--pipeline"), badName.err());
    }

    @Test
    void aSecondRunOfAFollowedPipelineIsRefusedWhileAnotherPipelineRunsBesideIt() throws Exception
    {
        final Path input = write("payments.csv", payments(2_000, 43));
        final String journal = dir.resolve("payments").toString();
        run("ingest", "--input", input.toString(), "--columns", COLUMNS, "--journal", journal);
        final List<String> command = new ArrayList<>(ChildJvm.weir("256m", "run", "--journal", journal, "--pipeline", "cards", "--follow",
            "--checkpoint-every", "100", "--results", dir.resolve("followed.csv").toString()));
        command.addAll(List.of(CARD_FLAGS));
        final Path out = dir.resolve("child.out");
        final Path err = dir.resolve("child.err");
        final Process follower = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try
        {
            final Path checkpoints = Path.of(journal, "pipelines", "cards", "checkpoints");
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
            while (!(Files.readString(out).contains("Following the journal") && hasFiles(checkpoints)))
            {
                assertTrue(follower.isAlive(), "the follower exited:\n" + Files.readString(out) + Files.readString(err));
                assertTrue(System.nanoTime() < deadline, "the follower does not follow");
                Thread.sleep(20);
            }

            final List<String> again = new ArrayList<>(List.of("run", "--journal", journal, "--pipeline", "cards", "--results",
                dir.resolve("again.csv").toString()));
            again.addAll(List.of(CARD_FLAGS));
            final Cli refused = Cli.run(again.toArray(new String[0]));
            assertEquals(2, refused.exit(), refused.out() + refused.err());
            assertTrue(refused.err().contains("results queue of pipeline cards already has an appender (process " + follower.pid() + ")"),
                refused.err());

            runPipeline(journal, "merchants", MERCHANT_FLAGS, "merchants.csv");
            assertTrue(Files.readAllLines(dir.resolve("merchants.csv")).size() > 20);
            final Cli inspect = run("inspect", journal);
            assertTrue(inspect.out().contains("pipelines    cards, merchants"), inspect.out());
            assertTrue(inspect.out().matches("(?s).*\\n  merchants +checkpoint at offset \\d+, lag 0 events; tumbling:5000 .*"), inspect.out());

            follower.destroy(); // SIGTERM: checkpoint and export
            assertTrue(follower.waitFor(TIMEOUT_S, TimeUnit.SECONDS));
            assertEquals(143, follower.exitValue(), Files.readString(out) + Files.readString(err));
        }
        finally
        {
            follower.destroyForcibly();
        }
        final Cli after = runPipeline(journal, "cards", CARD_FLAGS, "again.csv");
        assertTrue(after.out().contains("esum"), after.out());
    }

    private Cli runPipeline(final String journal, final String pipeline, final String[] flags, final String results)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--journal", journal, "--results", dir.resolve(results).toString()));
        if (pipeline != null)
        {
            args.addAll(List.of("--pipeline", pipeline));
        }
        args.addAll(List.of(flags));
        return run(args.toArray(new String[0]));
    }

    private static String[] afterEnd(final String[] flags)
    {
        final String[] all = java.util.Arrays.copyOf(flags, flags.length + 1);
        all[flags.length] = ResumeAfterEnd.FLAG;
        return all;
    }

    private static Cli run(final String... args)
    {
        final Cli cli = Cli.run(args);
        assertEquals(0, cli.exit(), String.join(" ", args) + "\n" + cli.out() + cli.err());
        return cli;
    }

    /** A header and {@code count} payments, in a shuffled time order, some out of order by up to 2 s. */
    static List<String> payments(final int count, final long seed)
    {
        final List<String> lines = new ArrayList<>(List.of("event_id,event_time,card,merchant,amount,fee"));
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 1; i <= count; i++)
        {
            final long time = 1_000_000L + i * 40L - random.nextInt(2_000);
            lines.add(i + "," + time + ",card-" + random.nextInt(30) + ",m" + random.nextInt(6) + ","
                + BigDecimal.valueOf(random.nextLong(100, 90_000), 2).toPlainString() + "," + random.nextInt(80));
        }
        return lines;
    }

    private static boolean hasFiles(final Path directory) throws IOException
    {
        if (!Files.isDirectory(directory))
        {
            return false;
        }
        try (Stream<Path> files = Files.list(directory))
        {
            return files.anyMatch(f -> !f.getFileName().toString().startsWith("."));
        }
    }

    private Path write(final String name, final List<String> lines) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.write(file, lines);
        return file;
    }
}
