package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once on a journal with columns, proven by killing ({@link KillRounds}): a child JVM runs {@code weir run
 * --input payments.csv --columns ... --key card --value amount} (sliding windows, late side output) on a generated
 * six-column payments stream ({@link PaymentsCsv}: quoted merchants, decimals, out-of-order, late and bad lines)
 * and is killed with SIGKILL at least {@code -Dweir.kill.count.columns} times (16 by default). After each round the
 * journal's events (every column), the output journal (results by card with their versions and source events,
 * late events) and the exported results, late and rejected files must equal an uninterrupted run's, byte for
 * byte; the rejected file holds each bad line once.
 */
class ColumnsKillRecoveryTest
{
    private static final int KILLS = KillRounds.count("weir.kill.count.columns", 16);
    private static final int EVENTS = 40_000;

    @TempDir
    Path dir;

    @Test
    void killedAtRandomMomentsARunOverPaymentsByCardStillWritesEveryOutputExactlyOnce() throws Exception
    {
        final Path input = dir.resolve("payments.csv");
        final PaymentsCsv payments = PaymentsCsv.write(input, EVENTS, 1414);

        final Path reference = new KillRounds("payments by card", dir, "card", KILLS, payments.events(), 1414 * 31L).run(out -> new String[] {
            "run", "--input", input.toString(), "--columns", PaymentsCsv.COLUMNS, "--key", "card", "--value", "amount",
            "--journal", out.resolve("journal").toString(), "--results", out.resolve("results.csv").toString(),
            "--late-output", out.resolve("late.csv").toString(), "--rejected", out.resolve("rejected.csv").toString(),
            "--window", "sliding:2s/500ms", "--out-of-orderness", "400", "--allowed-lateness", "1s", "--late", "side",
            "--checkpoint-every", "1000"});

        final List<String> outputs = OutputJournalContents.outputs(reference.resolve("journal"), "default", "card");
        assertTrue(outputs.stream().filter(o -> o.startsWith("late,")).count() > 10, "the stream has late events");
        assertTrue(outputs.stream().anyMatch(o -> o.startsWith("result,") && !o.contains(",0,source=")), "late events re-fired some windows");
        assertTrue(Files.readString(reference.resolve("results.csv")).startsWith("window_start,window_end,card,count,sum,min,max,version\n"),
            "the results are by card");
        assertTrue(Files.readString(reference.resolve("late.csv")).matches("(?s).*,-?[0-9]+\\.[0-9]{2}\n.*"), "late amounts at their scale");
        assertTrue(JournalRows.events(reference.resolve("journal")).stream().anyMatch(e -> e.contains("|Caf\u00e9 \"Le Bon 7\", Paris|")),
            "quoted merchants with commas and quotes in the journal");
        assertTrue(payments.badLines().size() >= 10, "the stream has bad lines: " + payments.badLines());
        payments.assertRejectedOnce(reference.resolve("rejected.csv"));
    }
}
