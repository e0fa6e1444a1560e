package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.aggregate.NamedAggregates;
import dev.weir.engine.expr.ExpressionColumns;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.postgres.OutputRows;
import dev.weir.postgres.ResultsTableShape;
import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.KillRounds;
import dev.weir.testsupport.OutputJournalContents;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once into PostgreSQL, proven by killing: {@code weir run --jdbc-url} in a child JVM is killed
 * with SIGKILL at random moments (drawn uniformly over an uninterrupted child's measured duration: start-up,
 * ingest, processing, checkpoints, export and delivery) and restarted, at least
 * {@code -Dweir.kill.count.postgres} times (12 by default), in rounds on fresh journals and tables; half of
 * the kills are aimed at the delivery, just after the child commits a transaction. After each round the
 * table must equal an uninterrupted run's, row for row; the round's output journal must equal the
 * uninterrupted run's, output by output with versions and source events; the offsets row must name the
 * last output of the round's own output journal and the highest event offset its outputs cover; and the
 * table must hold one row per final window of the output journal ({@link OutputRows#finalWindows}), each of its
 * highest version. It runs with the default columns, with six columns keyed by {@code merchant,country} (quoted
 * merchants) and valued by a {@code decimal(2)} amount, with those columns and named aggregates ({@code --aggregates}:
 * a column each, NULL where a filtered one has no value), and with sessions that grow and merge after their early
 * rows and firings were delivered (the table's early flag included).
 */
@Tag("slow")
class PostgresKillRecoveryTest
{
    private static final int KILLS = KillRounds.count("weir.kill.count.postgres", 12);
    private static final int EVENTS = 100_000;
    private static final String COLUMNS = "card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string";
    private static final String[] COUNTRIES = {"FR", "DE", "IT"};
    /** Named aggregates of the amount and fee: first and last, a filtered one often empty, a result expression, a mean. */
    private static final String AGGREGATES = "open=first(amount),close=last(amount),total=sum(amount),fees=sum(fee),n=count(),"
        + "mean=avg(amount),big=max(amount) filter (where amount > 90.00),span=max(amount)-min(amount)";

    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("kill_test");

    private Connection db;
    private String table;
    /** The key columns, as the table names them, for the query of its rows. */
    private String keys;
    /** The table's columns. */
    private ResultsTableShape shape;
    /** The table's columns after the window, up to the version, for the query of its rows. */
    private String values;

    @BeforeEach
    void tables()
    {
        db = tables.db();
        table = tables.name();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"default", "columns", "aggregates", "sessions"})
    void killedAtRandomMomentsTheTableStillEqualsAnUninterruptedRun(final String variant) throws Exception
    {
        final boolean named = variant.equals("aggregates");
        final boolean columns = variant.equals("columns") || named;
        final Path input = dir.resolve("events.csv");
        KillHarness.writeEvents(input, EVENTS, 1_000, 77);
        final List<String> flags = new ArrayList<>(List.of("--window", "tumbling:2s", "--out-of-orderness", "400ms", "--allowed-lateness", "3s",
            "--checkpoint-every", "2000", "--jdbc-url", TestDatabase.URL, "--jdbc-batch", "200"));
        keys = "key";
        values = "count, sum, min, max";
        shape = ResultsTableShape.DEFAULT;
        if (variant.equals("sessions"))
        {
            flags.set(1, "session:500ms");
            flags.addAll(List.of("--early-when", "count>=3"));
            shape = ResultsTableShape.DEFAULT.withEarly();
        }
        if (columns)
        {
            withColumns(input);
            flags.addAll(List.of("--columns", COLUMNS, "--key", "merchant,country"));
            flags.addAll(named ? List.of("--aggregates", AGGREGATES) : List.of("--value", "amount"));
            keys = "merchant, country";
            final JournalSchema schema = JournalSchema.parse(COLUMNS);
            shape = named ? ResultsTableShape.of(schema, new int[] {1, 2}, NamedAggregates.parse(AGGREGATES).bind(ExpressionColumns.of(schema)))
                : ResultsTableShape.of(schema, new int[] {1, 2}, 3, 0);
        }
        if (named)
        {
            values = String.join(", ", NamedAggregates.parse(AGGREGATES).names());
        }

        final long started = System.nanoTime();
        final Process clean = KillHarness.startChild(args(input, dir.resolve("reference"), table + "_reference", flags), dir.resolve("reference.log"));
        assertTrue(clean.waitFor(10, TimeUnit.MINUTES), "the uninterrupted run completes");
        assertEquals(0, clean.exitValue(), Files.readString(dir.resolve("reference.log")));
        final long cleanMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        final List<String> referenceOutputs = OutputJournalContents.outputs(dir.resolve("reference").resolve("journal"),
            JournalDirectory.DEFAULT_PIPELINE, columns ? "merchant,country" : "key");

        final List<String> reference = rows(table + "_reference");
        assertTrue(reference.size() > 10_000, "windows: " + reference.size());
        assertTrue(reference.stream().anyMatch(r -> r.matches(".*,1(,[tf])?")), "late events re-fired some windows");
        if (named)
        {
            assertTrue(reference.stream().anyMatch(r -> r.contains(",null,")) && reference.stream().anyMatch(r -> !r.contains(",null,")),
                "the filtered aggregate is NULL in some windows, not in all");
        }
        assertEquals(OutputRows.finalWindows(JournalDirectory.open(dir.resolve("reference").resolve("journal")), shape), reference,
            "the uninterrupted run's table: one row per final window, of its highest version");
        final JournalDirectory referenceJournal = JournalDirectory.open(dir.resolve("reference").resolve("journal"));
        if (shape.hasEarly())
        {
            assertTrue(OutputRows.highestVersions(referenceJournal).size() > reference.size() * 11 / 10,
                "sessions grew or merged after their early rows or firings: more windows in the output journal than final ones");
        }
        assertEquals(OutputRows.lastSourceOffset(referenceJournal), Long.parseLong(sourceOffset(table + "_reference")), "the uninterrupted run's offsets row");

        // rounds, each on a fresh journal and table: kills aimed anywhere alternate with kills aimed at the
        // delivery (just after the child committed a transaction); a round ends when a child completes
        final SplittableRandom random = new SplittableRandom(31);
        final int[] phases = new int[3]; // ingest, processing or export, delivery
        int kills = 0;
        int attempts = 0;
        int rounds = 0;
        while (kills < KILLS)
        {
            final Path killed = dir.resolve("killed-" + rounds);
            final Path journal = killed.resolve("journal");
            final String killedTable = table + "_killed_" + rounds;
            for (int k = 0; ; k++)
            {
                attempts++;
                assertTrue(attempts < KILLS * 20 + 50, "too many attempts: " + attempts);
                final Path log = dir.resolve("child-" + attempts + ".log");
                final long deliveredBefore = deliveredPosition(journal, killedTable);
                final Process child = KillHarness.startChild(args(input, killed, killedTable, flags), log);
                final boolean aim = kills < KILLS;
                if (aim && k % 2 == 1)
                {
                    awaitDeliveryProgress(child, journal, killedTable, deliveredBefore);
                    Thread.sleep(random.nextInt(200));
                }
                else if (aim)
                {
                    child.waitFor(random.nextLong(cleanMs + 1), TimeUnit.MILLISECONDS);
                }
                if (aim && child.isAlive())
                {
                    child.destroyForcibly(); // SIGKILL
                    child.waitFor();
                    kills++;
                    phases[phase(journal, killedTable)]++;
                    continue;
                }
                assertTrue(child.waitFor(10, TimeUnit.MINUTES), "a run to completion");
                if (child.exitValue() != 0)
                {
                    fail("child exited with " + child.exitValue() + ":\n" + Files.readString(log));
                }
                break;
            }

            KillHarness.assertSameLines("round " + rounds + ": the output journal, output by output with versions and source events", referenceOutputs,
                OutputJournalContents.outputs(journal, JournalDirectory.DEFAULT_PIPELINE, columns ? "merchant,country" : "key"));
            final List<String> afterKills = rows(killedTable);
            assertEquals(reference.size(), afterKills.size(), "round " + rounds + ": rows after its kills");
            assertEquals(reference, afterKills, "round " + rounds + ": rows after its kills");
            assertEquals(OutputRows.finalWindows(JournalDirectory.open(journal), shape), afterKills, "one row per final window, of its highest version");
            final JournalDirectory killedJournal = JournalDirectory.open(journal);
            assertEquals(List.of(lastOutputPosition(killedJournal) + "," + OutputRows.lastSourceOffset(killedJournal)), TestDatabase.rows(db,
                    "SELECT output_position, source_offset FROM weir_offsets WHERE journal_id = '" + killedJournal.id() + "' AND results_table = '"
                        + killedTable + "'"),
                "the offsets row names the last output and the event offset it covers");
            rounds++;
        }
        System.out.printf("--jdbc-url " + variant + ": %d kills in %d rounds (%d runs, an uninterrupted one takes %d ms): %d during start-up or ingest, "
            + "%d during processing or export, %d during delivery%n", kills, rounds, attempts + 1, cleanMs, phases[0], phases[1], phases[2]);
        assertTrue(phases[2] > 0, "some kills landed during delivery");
    }

    /**
     * Rewrite the events CSV with six columns: key {@code kN} becomes card {@code card-(N mod 50)}, merchant
     * {@code "mN, Inc."} (quoted) and country; the value becomes an amount in cents; malformed lines stay malformed.
     */
    private static void withColumns(final Path input) throws java.io.IOException
    {
        final List<String> lines = Files.readAllLines(input);
        final List<String> six = new ArrayList<>(List.of("event_id,event_time,card,merchant,country,amount,fee,channel"));
        for (final String line : lines.subList(1, lines.size()))
        {
            final String[] f = line.split(",");
            if (f.length != 4)
            {
                six.add(line);
                continue;
            }
            final int n = Integer.parseInt(f[2].substring(1));
            six.add(f[0] + "," + f[1] + ",card-" + n % 50 + ",\"m" + n + ", Inc.\"," + COUNTRIES[n % 3] + ","
                + java.math.BigDecimal.valueOf(Long.parseLong(f[3]), 2).toPlainString() + "," + n % 7 + ",online");
        }
        Files.write(input, six);
    }

    /** Wait until the child commits a delivery transaction beyond {@code before}, or exits. */
    private void awaitDeliveryProgress(final Process child, final Path journal, final String resultsTable, final long before) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (child.isAlive() && deliveredPosition(journal, resultsTable) <= before && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
    }

    /** Where a killed run was: 0 ingest, 1 processing or export, 2 delivery (begun, not finished). */
    private int phase(final Path journal, final String resultsTable) throws SQLException
    {
        if (KillHarness.ingestedLines(journal) < EVENTS)
        {
            return 0;
        }
        final long delivered = deliveredPosition(journal, resultsTable);
        return delivered >= 0 && delivered < lastOutputPosition(JournalDirectory.open(journal)) ? 2 : 1;
    }

    private static String[] args(final Path input, final Path out, final String resultsTable, final List<String> flags)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--input", input.toString(), "--journal", out.resolve("journal").toString(),
            "--rejected", out.resolve("rejected.csv").toString(), "--jdbc-table", resultsTable));
        args.addAll(flags);
        return args.toArray(String[]::new);
    }

    private List<String> rows(final String resultsTable) throws SQLException
    {
        final List<String> rows = TestDatabase.rows(db, "SELECT " + keys + ", window_start, window_end, " + values + ", version"
            + (shape.hasEarly() ? ", early" : "") + " FROM " + resultsTable);
        Collections.sort(rows);
        return rows;
    }

    private String sourceOffset(final String resultsTable) throws SQLException
    {
        return TestDatabase.rows(db, "SELECT source_offset FROM weir_offsets WHERE results_table = '" + resultsTable + "'").get(0);
    }

    private static long lastOutputPosition(final JournalDirectory journal)
    {
        try (OutputJournal output = OutputJournal.open(journal))
        {
            return output.lastPosition();
        }
    }

    private long deliveredPosition(final Path journal, final String resultsTable) throws SQLException
    {
        if (!JournalDirectory.isJournal(journal))
        {
            return -1;
        }
        final List<String> position = TestDatabase.rows(db, "SELECT output_position FROM weir_offsets WHERE journal_id = '"
            + JournalDirectory.open(journal).id() + "' AND results_table = '" + resultsTable + "'");
        return position.isEmpty() ? -1 : Long.parseLong(position.get(0));
    }
}
