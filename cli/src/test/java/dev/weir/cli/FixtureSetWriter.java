package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.weir.journal.EventJournal;
import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.retention.OutputHistory;
import dev.weir.testsupport.ChildJvm;
import dev.weir.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes one upgrade fixture set ({@code src/test/fixtures/SET/}, read by {@link UpgradeFixturesTest}) with the
 * code of the tree it runs in. Not a test: it runs only when {@code WEIR_WRITE_FIXTURES=SET} is set, which
 * {@code scripts/write-fixtures.sh SET} does, and refuses a set that exists (old sets are never rewritten). With
 * {@code WEIR_WRITE_FIXTURE_CASES=NAME,...} it writes only those cases (a set of new formats only).
 * <p>
 * Each case is a journal brought mid-way: part 1 of its input ingested and every pipeline run over it by a
 * following {@code weir run} stopped with SIGTERM (a checkpoint that is not at the end of the input, outputs and
 * a metrics file on disk), committed as {@code fixture.tar.gz} (GNU tar, sparse: Chronicle's cycle files are
 * mostly holes). Beside it: {@code manifest.properties}, part 2 of the input ({@code input-2.csv}), each
 * pipeline's flags ({@code args/NAME.args}, one argument a line) and the rows each pipeline gives when it runs to
 * the end ({@code expected/}), computed by bounded runs over a fresh journal that holds the same documents.
 * Needs PostgreSQL for the delivery case. One thread.
 */
class FixtureSetWriter
{
    /** The environment variable naming the set to write. */
    static final String SET_VARIABLE = "WEIR_WRITE_FIXTURES";
    /** The environment variable naming the cases to write (comma-separated; all if unset). */
    static final String CASES_VARIABLE = "WEIR_WRITE_FIXTURE_CASES";
    /** Where the sets are, from the cli module. */
    static final Path FIXTURES = Path.of("src", "test", "fixtures");
    /** The results table of the delivery case. */
    static final String DELIVERY_TABLE = "fixture_delivery";

    private static final long T0 = 1_764_000_000_000L; // 2025-11-24T16:00:00Z, a whole minute

    @TempDir
    Path work;

    /** A retained case's journal clock: settable, so that its ingests and outputs fall into separate minutely cycles. */
    private final AtomicLong now = new AtomicLong(T0 + 1_000);

    @AfterEach
    void systemClock()
    {
        JournalClock.useForTests(null);
    }

    /** What is done to a case's journal before it is committed; the expected journal repeats the ingests and heartbeats. */
    private sealed interface Step permits Ingest, Heartbeat, Follow, Advance, Retain
    {
    }

    /** Ingest an input file of the case, with these flags besides the case's creating ones ({@code --columns} that adds columns). */
    private record Ingest(String file, List<String> flags) implements Step
    {
        Ingest(final String file)
        {
            this(file, List.of());
        }
    }

    /** Append a heartbeat of this event time (as {@code --idle-timeout} would). */
    private record Heartbeat(long time) implements Step
    {
    }

    /**
     * Run these pipelines (every one if empty) with {@code --follow} until each has applied the journal's last event, then
     * SIGTERM it.
     */
    private record Follow(List<String> only) implements Step
    {
        Follow()
        {
            this(List.of());
        }
    }

    /** Move the case's journal clock on. */
    private record Advance(long ms) implements Step
    {
    }

    /** {@code weir retain --keep KEEP --archive archive}. */
    private record Retain(String keep) implements Step
    {
    }

    /**
     * @param name        the case's folder.
     * @param description what it holds, for the manifest.
     * @param create      the flags that create its journal ({@code --columns}, {@code --roll-cycle}).
     * @param steps       what is done before it is committed.
     * @param part2       the input the test ingests (committed as {@code input-2.csv}).
     * @param pipelines   each pipeline's flags, by name, in run order.
     * @param delivered   the pipeline that delivers to PostgreSQL, or null.
     * @param retained    whether retention runs on it: its journal's clock is then the settable one (else the system clock),
     *                    and its pipelines export date partitions ({@code --output-dir}: a results file is refused once
     *                    retention removed outputs, and the partitions of the days it removed are not rewritten).
     */
    private record Case(String name, String description, List<String> create, List<Step> steps, String part2, Map<String, List<String>> pipelines,
        String delivered, boolean retained)
    {
    }

    @Test
    void writeTheSet() throws Exception
    {
        final String set = System.getenv(SET_VARIABLE);
        Assumptions.assumeTrue(set != null && !set.isBlank(), "writes a fixture set only with " + SET_VARIABLE + "=SET");
        assertTrue(set.matches("\\d{4}-\\d{2}-\\d{2}[a-z0-9-]*"), "a set is named by its date: " + set);
        final Path target = FIXTURES.resolve(set);
        assertFalse(Files.exists(target), target + " exists: old sets are never rewritten; name a new one");
        final Path staging = work.resolve("set");
        final String only = System.getenv(CASES_VARIABLE);
        final List<String> wanted = only == null || only.isBlank() ? List.of() : List.of(only.trim().split("[ ,]+"));
        for (final Case c : cases())
        {
            if (wanted.isEmpty() || wanted.contains(c.name()))
            {
                write(c, staging.resolve(c.name()));
            }
        }
        assertTrue(Files.isDirectory(staging), "no case of " + wanted);
        Files.createDirectories(target.getParent());
        copyTree(staging, target);
        try (var files = Files.walk(target))
        {
            System.out.println("fixture set " + target + ": " + files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum() + " bytes");
        }
    }

    private List<Case> cases() throws IOException
    {
        final Path in = Files.createDirectories(work.resolve("in"));
        final List<Case> cases = new ArrayList<>();

        long t = FixtureEvents.write(in.resolve("default-1.csv"), false, 1, 1_500, T0, 11);
        FixtureEvents.write(in.resolve("default-2.csv"), false, 1_400, 1_000, t + 2_000, 12);
        cases.add(new Case("default-journal", "the default columns (key,value) and the default pipeline mid-way, with dedupe and lateness",
            List.of(), List.of(new Ingest("default-1.csv"), new Follow()), "default-2.csv",
            pipelines("default", "--window", "tumbling:10s", "--out-of-orderness", "2s", "--allowed-lateness", "5s", "--dedupe"), null, false));

        t = FixtureEvents.write(in.resolve("columns-1a.csv"), true, 1, 1_200, T0, 21);
        final long heartbeat = t + 30_000;
        t = FixtureEvents.write(in.resolve("columns-1b.csv"), true, 1_200, 800, heartbeat + 10_000, 22);
        FixtureEvents.write(in.resolve("columns-2.csv"), true, 1_950, 1_200, t + 2_000, 23);
        final Map<String, List<String>> named = new LinkedHashMap<>();
        named.putAll(pipelines("composite", "--key", "merchant,country", "--value", "amount", "--window", "tumbling:10s", "--out-of-orderness", "2s",
            "--aggregate", "average"));
        named.putAll(pipelines("filtered", "--key", "card", "--value", "amount - fee", "--where", "country in ('FR', 'DE') and amount > 5.00",
            "--window", "sliding:20s/5s", "--out-of-orderness", "2s"));
        named.putAll(pipelines("late-side", "--key", "card", "--value", "amount", "--window", "tumbling:5s", "--out-of-orderness", "1s",
            "--late", "side"));
        named.putAll(pipelines("updates", "--key", "card", "--value", "fee", "--window", "session:2s", "--allowed-lateness", "20s",
            "--emit", "updates"));
        named.putAll(pipelines("early", "--key", "card", "--value", "amount", "--window", "sliding:30s/10s", "--out-of-orderness", "2s",
            "--early-when", "sum>=300.00", "--early-once", "key", "--dedupe", "--aggregate", "distinct:merchant,average"));
        named.putAll(pipelines("fees", "--key", "fee", "--value", "amount", "--window", "tumbling:1m", "--aggregate", "distinct"));
        named.putAll(pipelines("wrapped", "--key", "country", "--value", "amount * 1000000000000000", "--window", "tumbling:30s"));
        cases.add(new Case("columns-pipelines", "payments columns (string, long, decimal), rejected lines, a heartbeat, and seven named pipelines "
            + "mid-way: composite, long and string keys, --where, --value arithmetic, tumbling, sliding and session windows, late events to the "
            + "side output, re-firing with --allowed-lateness, --emit updates, --early-when with --early-once, dedupe, one and several aggregates, "
            + "values and sums that wrap",
            List.of("--columns", FixtureEvents.PAYMENT_COLUMNS), List.of(new Ingest("columns-1a.csv"), new Heartbeat(heartbeat),
                new Ingest("columns-1b.csv"), new Follow()), "columns-2.csv", named, null, false));

        final long day = 86_400_000L; // a day of event time between the parts: each day's partition is removed or kept whole
        FixtureEvents.write(in.resolve("retained-1a.csv"), true, 1, 600, T0, 31);
        FixtureEvents.write(in.resolve("retained-1b.csv"), true, 600, 600, T0 + day, 32);
        t = FixtureEvents.write(in.resolve("retained-1c.csv"), true, 1_200, 600, T0 + 2 * day, 33);
        FixtureEvents.write(in.resolve("retained-2.csv"), true, 1_800, 800, t + 1_000, 34);
        cases.add(new Case("retained", "a minutely journal over three cycles, a pipeline run after each, then weir retain --keep 90s --archive: "
            + "history base, output history and archive", List.of("--columns", FixtureEvents.PAYMENT_COLUMNS, "--roll-cycle", "minutely"),
            List.of(new Ingest("retained-1a.csv"), new Follow(), new Advance(60_000), new Ingest("retained-1b.csv"), new Follow(), new Advance(60_000),
                new Ingest("retained-1c.csv"), new Follow(), new Advance(180_000), new Retain("90s")), "retained-2.csv",
            pipelines("spend", "--key", "card,fee", "--value", "amount", "--window", "tumbling:10s", "--out-of-orderness", "2s", "--allowed-lateness", "5s"),
            null, true));

        t = FixtureEvents.write(in.resolve("postgres-1.csv"), true, 1, 1_500, T0, 41);
        FixtureEvents.write(in.resolve("postgres-2.csv"), true, 1_500, 1_000, t + 2_000, 42);
        cases.add(new Case("postgres-delivery", "a named pipeline that delivered part 1's results to PostgreSQL (with early rows): its "
            + "weir_offsets row, its results table (postgres.sql) and its local delivery record",
            List.of("--columns", FixtureEvents.PAYMENT_COLUMNS), List.of(new Ingest("postgres-1.csv"), new Follow()), "postgres-2.csv",
            pipelines("delivered", "--key", "card", "--value", "amount", "--window", "tumbling:10s", "--out-of-orderness", "2s",
                "--allowed-lateness", "5s", "--early-when", "sum>=500.00"), "delivered", false));

        t = FixtureEvents.write(in.resolve("added-1a.csv"), FixtureEvents.Columns.FOUR, 1, 1_000, T0, 51);
        t = FixtureEvents.write(in.resolve("added-1b.csv"), FixtureEvents.Columns.SIX, 1_000, 800, t + 1_000, 52);
        FixtureEvents.write(in.resolve("added-2.csv"), FixtureEvents.Columns.SIX, 1_800, 1_000, t + 2_000, 53);
        final Map<String, List<String>> gained = new LinkedHashMap<>();
        gained.putAll(pipelines("spend", "--key", "card", "--value", "amount", "--window", "tumbling:10s", "--out-of-orderness", "2s",
            "--allowed-lateness", "5s"));
        gained.putAll(pipelines("by-channel", "--key", "channel,country", "--value", "amount - fee", "--window", "tumbling:10s",
            "--out-of-orderness", "2s", "--aggregate", "distinct:card"));
        cases.add(new Case("added-columns", "a journal created with four columns and a named pipeline mid-way; then an ingest added "
            + FixtureEvents.ADDED_COLUMNS + " (marker version 3, event documents 10 and 11), and a second pipeline on channel; both mid-way",
            List.of("--columns", FixtureEvents.FOUR_COLUMNS), List.of(new Ingest("added-1a.csv"), new Follow(List.of("spend")),
                new Ingest("added-1b.csv", List.of("--columns", FixtureEvents.FOUR_COLUMNS + "," + FixtureEvents.ADDED_COLUMNS)), new Follow()),
            "added-2.csv", gained, null, false));
        return cases;
    }

    private static Map<String, List<String>> pipelines(final String name, final String... args)
    {
        final Map<String, List<String>> map = new LinkedHashMap<>();
        map.put(name, List.of(args));
        return map;
    }

    private void write(final Case c, final Path out) throws Exception
    {
        final Path in = work.resolve("in");
        final Path made = Files.createDirectories(work.resolve("made").resolve(c.name()));
        final Path journal = made.resolve("journal");
        Files.createDirectories(out.resolve("args"));
        Files.createDirectories(out.resolve("expected"));

        try (Connection db = c.delivered() == null ? null : TestDatabase.connect())
        {
            final String schema = db == null ? null : FixtureTables.createSchema(db, "fixture_write");
            midWay(c, made, schema);
            pack(made, out.resolve("fixture.tar.gz"));
            if (db != null)
            {
                final String journalId = JournalDirectory.open(journal).id();
                Files.writeString(out.resolve("postgres.sql"), "-- the fixture's PostgreSQL state after part 1, under the names it used; "
                    + "its table identity is re-pointed at the restored table\n"
                    + FixtureTables.dump(db, schema, "weir_offsets", "journal_id LIKE '" + journalId + "%'")
                    + FixtureTables.dump(db, schema, DELIVERY_TABLE, "true")
                    + "UPDATE weir_offsets SET table_oid = to_regclass('" + DELIVERY_TABLE + "')::oid::bigint, table_filenode = pg_relation_filenode(to_regclass('"
                    + DELIVERY_TABLE + "'))::bigint;\n");
                FixtureTables.dropSchema(db, schema);
            }
            expected(c, in, made, out, db);
        }
        Files.copy(in.resolve(c.part2()), out.resolve("input-2.csv"));
        for (final Map.Entry<String, List<String>> pipeline : c.pipelines().entrySet())
        {
            Files.write(out.resolve("args").resolve(pipeline.getKey() + ".args"), pipeline.getValue(), StandardCharsets.UTF_8);
        }
        manifest(c, out);
    }

    /** Take the case's steps on {@code made/journal} (and {@code made/archive}), then check that it inspects. */
    private void midWay(final Case c, final Path made, final String schema) throws Exception
    {
        final Path in = work.resolve("in");
        final Path journal = made.resolve("journal");
        boolean created = false;
        int follow = 0;
        for (final Step step : c.steps())
        {
            if (c.retained())
            {
                JournalClock.useForTests(JournalClock.of(now::get));
            }
            if (step instanceof Ingest ingest)
            {
                ingest(journal, in.resolve(ingest.file()), flags(c, ingest, created), made.resolve(ingest.file() + ".rejected.csv"));
                created = true;
            }
            else if (step instanceof Heartbeat beat)
            {
                heartbeat(journal, beat.time());
            }
            else if (step instanceof Advance advance)
            {
                now.addAndGet(advance.ms());
            }
            else if (step instanceof Retain retain)
            {
                final Cli retention = Cli.run("retain", "--journal", journal.toString(), "--keep", retain.keep(), "--archive",
                    made.resolve("archive").toString());
                assertEquals(0, retention.exit(), retention.out() + retention.err());
                assertTrue(retention.out().contains("archived events") && retention.out().contains("archived results"), retention.out());
                assertTrue(Files.exists(journal.resolve("history.base")), "a history base: " + retention.out());
            }
            else if (step instanceof Follow only)
            {
                follow++;
                for (final Map.Entry<String, List<String>> pipeline : c.pipelines().entrySet())
                {
                    if (only.only().isEmpty() || only.only().contains(pipeline.getKey()))
                    {
                        follow(c, journal, pipeline.getKey(), pipeline.getValue(), schema, made.resolve("follow-" + follow));
                    }
                }
            }
        }
        JournalClock.useForTests(null);
        final Cli inspect = Cli.run("inspect", journal.toString());
        assertEquals(0, inspect.exit(), inspect.err());
    }

    /** {@code made/journal} (and {@code made/archive}) into a sparse, gzipped tar. */
    private static void pack(final Path made, final Path tarball) throws IOException, InterruptedException
    {
        final List<String> tar = new ArrayList<>(List.of("tar", "--sparse", "--sort=name", "--owner=0", "--group=0", "--numeric-owner", "-czf",
            tarball.toAbsolutePath().toString(), "-C", made.toAbsolutePath().toString(), "journal"));
        if (Files.exists(made.resolve("archive")))
        {
            tar.add("archive");
        }
        final Process p = new ProcessBuilder(tar).inheritIO().start();
        assertEquals(0, p.waitFor(), "tar " + tar);
    }

    /** Bounded runs over a fresh journal holding the same documents, part 2 included: the rows a resumed pipeline must give. */
    private void expected(final Case c, final Path in, final Path made, final Path out, final Connection db) throws Exception
    {
        final Path fresh = work.resolve("fresh").resolve(c.name());
        final Path journal = fresh.resolve("journal");
        boolean created = false;
        for (final Step step : c.steps())
        {
            if (step instanceof Ingest ingest)
            {
                ingest(journal, in.resolve(ingest.file()), flags(c, ingest, created), fresh.resolve(ingest.file() + ".rejected.csv"));
                created = true;
            }
            else if (step instanceof Heartbeat beat)
            {
                heartbeat(journal, beat.time());
            }
        }
        ingest(journal, in.resolve(c.part2()), List.of(), fresh.resolve("input-2.rejected.csv"));
        final String schema = db == null ? null : FixtureTables.createSchema(db, "fixture_expected");
        try
        {
            for (final Map.Entry<String, List<String>> pipeline : c.pipelines().entrySet())
            {
                final String name = pipeline.getKey();
                final List<String> run = runArgs(journal, name, pipeline.getValue(), out.resolve("expected"),
                    name.equals(c.delivered()) ? FixtureTables.url(schema) : null, c.retained());
                final Cli bounded = Cli.run(run.toArray(String[]::new));
                assertEquals(0, bounded.exit(), run + "\n" + bounded.out() + bounded.err());
                if (c.retained())
                {
                    dropRemovedDays(made.resolve("journal"), name, out.resolve("expected").resolve(name));
                    final List<String> replay = replayArgs(journal, null, name, pipeline.getValue(), out.resolve("expected"));
                    final Cli whole = Cli.run(replay.toArray(String[]::new));
                    assertEquals(0, whole.exit(), replay + "\n" + whole.out() + whole.err());
                }
            }
            if (db != null)
            {
                Files.write(out.resolve("expected").resolve("postgres.rows"), FixtureTables.rows(db, schema, DELIVERY_TABLE), StandardCharsets.UTF_8);
            }
        }
        finally
        {
            if (db != null)
            {
                FixtureTables.dropSchema(db, schema);
            }
        }
    }

    /**
     * @param journal  the journal.
     * @param name     the pipeline.
     * @param args     its flags.
     * @param outputs  where its results ({@code NAME.results.csv}) and late events ({@code NAME.late.csv}, with {@code --late side}) go.
     * @param jdbcUrl  the database it delivers to ({@link #DELIVERY_TABLE}), or null.
     * @param partitioned whether its results go to date partitions ({@code --output-dir outputs/NAME}) instead.
     * @return a bounded {@code weir run} of it.
     */
    static List<String> runArgs(final Path journal, final String name, final List<String> args, final Path outputs, final String jdbcUrl,
        final boolean partitioned)
    {
        final List<String> run = new ArrayList<>(List.of("run", "--journal", journal.toString()));
        if (!JournalDirectory.DEFAULT_PIPELINE.equals(name))
        {
            run.addAll(List.of("--pipeline", name));
        }
        run.addAll(args);
        run.addAll(partitioned ? List.of("--output-dir", outputs.resolve(name).toString())
            : List.of("--results", outputs.resolve(name + ".results.csv").toString()));
        final int late = args.indexOf("--late");
        if (late >= 0 && "side".equals(args.get(late + 1)))
        {
            run.addAll(List.of("--late-output", outputs.resolve(name + ".late.csv").toString()));
        }
        if (jdbcUrl != null)
        {
            run.addAll(List.of("--jdbc-url", jdbcUrl, "--jdbc-table", DELIVERY_TABLE));
        }
        return run;
    }

    /**
     * @param journal the journal.
     * @param archive where retention moved its removed cycles, or null.
     * @param name    the pipeline whose flags are replayed.
     * @param args    its flags.
     * @param outputs where the rows go ({@code NAME.replay.csv}).
     * @return a {@code weir replay} of the whole journal, its archive first, with the pipeline's flags.
     */
    static List<String> replayArgs(final Path journal, final Path archive, final String name, final List<String> args, final Path outputs)
    {
        final List<String> replay = new ArrayList<>(List.of("replay", "--journal", journal.toString()));
        if (archive != null)
        {
            replay.addAll(List.of("--archive", archive.toString()));
        }
        replay.addAll(args);
        replay.addAll(List.of("--results", outputs.resolve(name + ".replay.csv").toString()));
        return replay;
    }

    /**
     * A run after retention leaves the partitions of the days whose results it removed as they are (here: absent),
     * so the expected partitions are those after the day of the greatest window start it removed.
     */
    private static void dropRemovedDays(final Path journal, final String pipeline, final Path partitions) throws IOException
    {
        final OutputHistory history = OutputHistory.read(JournalDirectory.open(journal).pipeline(pipeline)).orElseThrow();
        final String lastRemoved = "date=" + LocalDate.ofInstant(Instant.ofEpochMilli(history.maxRemovedWindowStart()), ZoneOffset.UTC);
        try (var days = Files.list(partitions))
        {
            for (final Path day : days.toList())
            {
                if (day.getFileName().toString().compareTo(lastRemoved) <= 0)
                {
                    try (var files = Files.walk(day))
                    {
                        for (final Path file : files.sorted(java.util.Comparator.reverseOrder()).toList())
                        {
                            Files.delete(file);
                        }
                    }
                }
            }
        }
        try (var days = Files.list(partitions))
        {
            assertTrue(days.findAny().isPresent(), "a partition after the removed days");
        }
    }

    /** The flags of an ingest step: the case's creating ones on the first, then the step's own. */
    private static List<String> flags(final Case c, final Ingest ingest, final boolean created)
    {
        final List<String> flags = new ArrayList<>(created ? List.of() : c.create());
        flags.addAll(ingest.flags());
        return flags;
    }

    private static void ingest(final Path journal, final Path input, final List<String> create, final Path rejected)
    {
        final List<String> args = new ArrayList<>(List.of("ingest", "--input", input.toString(), "--journal", journal.toString(),
            "--rejected", rejected.toString(), "--sync"));
        args.addAll(create);
        final Cli ingest = Cli.run(args.toArray(String[]::new));
        assertEquals(0, ingest.exit(), args + "\n" + ingest.out() + ingest.err());
    }

    private static void heartbeat(final Path journal, final long time)
    {
        try (EventJournal appender = EventJournal.open(JournalDirectory.open(journal)))
        {
            appender.appendHeartbeat(time);
        }
    }

    /** A following run of the pipeline in a child JVM (on the case's clock), stopped by SIGTERM once it has applied the last event. */
    private void follow(final Case c, final Path journal, final String name, final List<String> args, final String schema, final Path outputs)
        throws Exception
    {
        Files.createDirectories(outputs);
        final List<String> run = runArgs(journal, name, args, outputs, schema == null ? null : FixtureTables.url(schema), c.retained());
        run.add("--follow");
        final List<String> command = ChildJvm.weir("512m", run.toArray(String[]::new));
        if (c.retained())
        {
            // a clock that stands (almost) still at the case's time: the outputs go to its current cycle
            command.add(1, "-D" + JournalClock.ORIGIN_PROPERTY + "=" + now.get());
            command.add(2, "-D" + JournalClock.SCALE_PROPERTY + "=1e-9");
        }
        final Path log = outputs.resolve(name + ".log");
        final Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try
        {
            final JournalDirectory directory = JournalDirectory.open(journal);
            final long last = IngestLog.counts(directory).lastEventOffset();
            final JournalDirectory pipeline = directory.pipeline(name);
            final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (FollowerProgress.appliedOffset(pipeline, child.pid()) < last)
            {
                assertTrue(child.isAlive(), "the follower of " + name + " ended:\n" + Files.readString(log));
                assertTrue(System.nanoTime() < deadline, "the follower of " + name + " did not apply offset " + last + ":\n" + Files.readString(log));
                FollowerProgress.sleep(50);
            }
        }
        finally
        {
            child.destroy(); // SIGTERM: a checkpoint that is not at the end of the input, the outputs exported
            assertTrue(child.waitFor(3, TimeUnit.MINUTES), "stopped");
        }
        assertEquals(143, child.exitValue(), Files.readString(log));
    }

    private void manifest(final Case c, final Path out) throws IOException, InterruptedException
    {
        // the code that wrote the set: the last commit that changed anything but tests, scripts and documents
        final String commit = git("log", "-1", "--format=%H %cs", "--", ":(top)", ":(top,exclude)*/src/test/*", ":(top,exclude)scripts/*", ":(top,exclude)*.md")
            + (git("status", "--porcelain", "--", ":(top)", ":(top,exclude)*/src/test/*", ":(top,exclude)scripts/*", ":(top,exclude)*.md").isEmpty()
            ? "" : " with uncommitted changes");
        final StringBuilder text = new StringBuilder()
            .append("# An upgrade fixture (see ../../README.md); read by UpgradeFixturesTest. Never edit a committed set.\n")
            .append("format=weir-fixture-manifest\nversion=1\n")
            .append("description=").append(c.description()).append('\n')
            .append("written-by=").append(commit).append('\n')
            .append("# the fixture: fixture.tar.gz holds journal/ (and archive/ after weir retain --archive)\n")
            .append("journal=journal\n")
            .append("# what the test does: weir ingest this file into journal/, then a bounded weir run of each pipeline with args/NAME.args\n")
            .append("ingest=input-2.csv\n")
            .append("pipelines=").append(String.join(",", c.pipelines().keySet())).append('\n')
            .append("# results: --results NAME.results.csv; partitions: --output-dir NAME (expected/NAME/date=.../results.csv)\n")
            .append("outputs=").append(c.retained() ? "partitions" : "results").append('\n');
        if (c.retained())
        {
            text.append("# then weir replay each pipeline's flags over archive/ and journal/ as one journal (expected/NAME.replay.csv)\n")
                .append("replay.archive=archive\n");
        }
        if (c.delivered() != null)
        {
            text.append("# load postgres.sql into an empty schema first; this pipeline delivers into postgres.table there (expected/postgres.rows)\n")
                .append("postgres.sql=postgres.sql\npostgres.table=").append(DELIVERY_TABLE).append("\npostgres.pipeline=").append(c.delivered()).append('\n');
        }
        Files.writeString(out.resolve("manifest.properties"), text);
    }

    private static String git(final String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        final Process git = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, git.waitFor(), command + ": " + out);
        return out;
    }

    private static void copyTree(final Path from, final Path to) throws IOException
    {
        try (var files = Files.walk(from))
        {
            for (final Path file : files.toList())
            {
                final Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file))
                {
                    Files.createDirectories(target);
                }
                else
                {
                    Files.copy(file, target);
                }
            }
        }
    }
}
