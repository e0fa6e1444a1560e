package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.weir.journal.JournalDirectory;
import dev.weir.testsupport.JournalRows;
import dev.weir.testsupport.KillRounds;
import dev.weir.testsupport.OutputJournalContents;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Exactly-once on a journal with columns, proven by killing ({@link KillRounds}): a child JVM runs {@code weir run
 * --input payments.csv --columns ... --key K --value amount} (late side output) on a generated six-column payments
 * stream ({@link PaymentsCsv}: quoted merchants, decimals, out-of-order, late and bad lines) and is killed with
 * SIGKILL at least {@code -Dweir.kill.count.columns} times per case (10 by default). Two cases: spend per card,
 * sliding, and spend per merchant, sessions with 3 s of allowed lateness (the stream's late events are 3 to 5 s
 * late; a merchant's sessions run into each other, so only those re-fire them) (merchant is not the first string column, so a reader that fell back
 * to the journal's first string column would group it by card). After each round the journal's events (every
 * column), the output journal (results by key with their versions and source events, late events) and the
 * exported results, late and rejected files must equal an uninterrupted run's, byte for byte; the rejected file
 * holds each bad line once.
 */
@Tag("slow")
class ColumnsKillRecoveryTest
{
    private static final int KILLS = KillRounds.count("weir.kill.count.columns", 10);
    private static final int EVENTS = 30_000;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "--key {0} --window {1} --allowed-lateness {2}")
    @CsvSource({"card,sliding:2s/500ms,1s", "merchant,session:20ms,3s"})
    void killedAtRandomMomentsARunOverPaymentsStillWritesEveryOutputExactlyOnce(final String key, final String window, final String lateness)
        throws Exception
    {
        final Path input = dir.resolve("payments.csv");
        final PaymentsCsv payments = PaymentsCsv.write(input, EVENTS, key.hashCode());

        final KillRounds rounds = new KillRounds("payments by " + key, dir, key, KILLS, payments.events(), key.hashCode() * 31L);
        final Path reference = rounds.run(out -> new String[] {
            "run", "--input", input.toString(), "--columns", PaymentsCsv.COLUMNS, "--key", key, "--value", "amount",
            "--journal", out.resolve("journal").toString(), "--results", out.resolve("results.csv").toString(),
            "--late-output", out.resolve("late.csv").toString(), "--rejected", out.resolve("rejected.csv").toString(),
            "--window", window, "--out-of-orderness", "400ms", "--allowed-lateness", lateness, "--late", "side", "--checkpoint-every", "1000"});

        final List<String> outputs = OutputJournalContents.outputs(reference.resolve("journal"), JournalDirectory.DEFAULT_PIPELINE, key);
        assertTrue(outputs.stream().filter(o -> o.startsWith("late,")).count() > 10, "the stream has late events");
        assertTrue(outputs.stream().anyMatch(o -> o.startsWith("result,") && !o.contains(",0,source=")), "late events re-fired some windows");
        final String results = Files.readString(reference.resolve("results.csv"));
        assertTrue(results.startsWith("window_start,window_end," + key + ",count,sum,min,max,version\n"), "the results are by " + key);
        assertTrue(results.matches("(?s).*,-?[0-9]+\\.[0-9]{2},[0-9]+\n.*"), "amounts at their scale");
        assertTrue(JournalRows.events(reference.resolve("journal")).stream().anyMatch(e -> e.contains("|Caf\u00e9 \"Le Bon 7\", Paris|")),
            "quoted merchants with commas and quotes in the journal");
        if (key.equals("merchant"))
        {
            assertTrue(results.contains(",\"Caf\u00e9 \"\"Le Bon 7\"\", Paris\","),
                "quoted merchants in the results");
        }
        assertTrue(payments.badLines().size() >= 10, "the stream has bad lines: " + payments.badLines());
        payments.assertRejectedOnce(reference.resolve("rejected.csv"));
    }
}
