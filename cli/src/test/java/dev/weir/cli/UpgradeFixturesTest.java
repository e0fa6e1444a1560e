package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.testsupport.TestDatabase;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Journals written by earlier versions of Weir keep working: for every fixture set under
 * {@code src/test/fixtures/} (one per format change, never changed or removed; see its README) and every case in
 * it, the journal is unpacked, {@code weir inspect} reads it, part 2 of its input is ingested with the current
 * code, each of its pipelines is resumed from its checkpoint by a bounded {@code weir run} with the flags it was
 * written with, and every output (results, late events, a PostgreSQL table) must equal, row for row, what the
 * writing version gave on an uninterrupted run over all the input. A new set is a new folder: no code changes.
 * PostgreSQL cases are skipped without a server, unless {@code WEIR_REQUIRE_POSTGRES=1}.
 */
class UpgradeFixturesTest
{
    private static final int MANIFEST_VERSION = 1;

    @TempDir
    Path dir;

    @TestFactory
    Stream<DynamicTest> everyCaseOfEverySetResumesAndGivesTheRowsItsVersionGave() throws IOException
    {
        final List<DynamicTest> tests = new ArrayList<>();
        for (final Path set : sorted(FixtureSetWriter.FIXTURES))
        {
            for (final Path fixture : sorted(set))
            {
                if (Files.exists(fixture.resolve("manifest.properties")))
                {
                    final String name = set.getFileName() + "/" + fixture.getFileName();
                    tests.add(DynamicTest.dynamicTest(name, () -> resume(name, fixture, Files.createDirectories(dir.resolve(name)))));
                }
            }
        }
        assertFalse(tests.isEmpty(), "no fixture cases under " + FixtureSetWriter.FIXTURES.toAbsolutePath());
        return tests.stream();
    }

    private static List<Path> sorted(final Path parent) throws IOException
    {
        try (Stream<Path> children = Files.list(parent))
        {
            return children.filter(Files::isDirectory).sorted().toList();
        }
    }

    private static void resume(final String name, final Path fixture, final Path work) throws Exception
    {
        final Properties manifest = new Properties();
        try (Reader reader = Files.newBufferedReader(fixture.resolve("manifest.properties"), StandardCharsets.UTF_8))
        {
            manifest.load(reader);
        }
        assertEquals("weir-fixture-manifest", manifest.getProperty("format"), name + ": manifest format");
        assertTrue(Integer.parseInt(manifest.getProperty("version")) <= MANIFEST_VERSION,
            name + ": manifest version " + manifest.getProperty("version") + " is newer than this test reads (" + MANIFEST_VERSION + ")");
        final Process tar = new ProcessBuilder("tar", "-xzf", fixture.resolve("fixture.tar.gz").toAbsolutePath().toString(), "-C",
            work.toAbsolutePath().toString()).redirectErrorStream(true).start();
        final String tarOutput = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, tar.waitFor(), name + ": tar -xzf fixture.tar.gz: " + tarOutput);
        final Path journal = work.resolve(manifest.getProperty("journal"));

        final Cli inspect = Cli.run("inspect", journal.toString());
        assertEquals(0, inspect.exit(), name + ": weir inspect exited " + inspect.exit() + ":\n" + inspect.err() + inspect.out());

        final String sql = manifest.getProperty("postgres.sql");
        final Connection db = sql == null ? null : TestDatabase.connect(); // skips (or fails in CI) without a server
        final String schema = db == null ? null : FixtureTables.createSchema(db, "fixture_test");
        try
        {
            if (db != null)
            {
                TestDatabase.execute(db, "SET search_path TO " + schema + ";\n" + Files.readString(fixture.resolve(sql)) + "\nRESET search_path;");
            }
            final long loadedRows = db == null ? 0
                : Long.parseLong(TestDatabase.rows(db, "SELECT count(*) FROM " + schema + "." + manifest.getProperty("postgres.table")).get(0));
            final Path input = Files.copy(fixture.resolve(manifest.getProperty("ingest")), work.resolve("input-2.csv"));
            final Cli ingest = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString(), "--rejected",
                work.resolve("input-2.rejected.csv").toString());
            assertEquals(0, ingest.exit(), name + ": weir ingest exited " + ingest.exit() + ":\n" + ingest.err() + ingest.out());

            final Path outputs = Files.createDirectories(work.resolve("outputs"));
            final boolean partitioned = "partitions".equals(manifest.getProperty("outputs", "results"));
            for (final String pipeline : manifest.getProperty("pipelines").split(","))
            {
                final boolean delivers = pipeline.equals(manifest.getProperty("postgres.pipeline"));
                final List<String> args = Files.readAllLines(fixture.resolve("args").resolve(pipeline + ".args"), StandardCharsets.UTF_8);
                final List<String> run = FixtureSetWriter.runArgs(journal, pipeline, args, outputs, delivers ? FixtureTables.url(schema) : null,
                    partitioned);
                final Cli resumed = Cli.run(run.toArray(String[]::new));
                assertEquals(0, resumed.exit(), name + ", pipeline " + pipeline + ": weir " + String.join(" ", run) + " exited " + resumed.exit()
                    + ":\n" + resumed.err() + resumed.out());
                assertTrue(resumed.out().contains("\nresumed         from the checkpoint"), name + ", pipeline " + pipeline
                    + ": did not resume from the fixture's checkpoint (its summary has no line 'resumed  from the checkpoint'):\n" + resumed.out());
                final List<String> files = new ArrayList<>(List.of(pipeline + ".results.csv", pipeline + ".late.csv"));
                if (partitioned)
                {
                    final List<String> days = partitions(outputs.resolve(pipeline));
                    assertEquals(partitions(fixture.resolve("expected").resolve(pipeline)), days, name + ", pipeline " + pipeline + ": the partitions written");
                    days.forEach(day -> files.add(pipeline + "/" + day));
                }
                for (final String file : files)
                {
                    final Path expected = fixture.resolve("expected").resolve(file);
                    if (Files.exists(expected))
                    {
                        assertSameRows(name + ", pipeline " + pipeline + ", " + file, Files.readAllLines(expected), Files.readAllLines(outputs.resolve(file)));
                    }
                }
                final String archive = manifest.getProperty("replay.archive");
                if (archive != null)
                {
                    final List<String> replay = FixtureSetWriter.replayArgs(journal, work.resolve(archive), pipeline, args, outputs);
                    final Cli whole = Cli.run(replay.toArray(String[]::new));
                    assertEquals(0, whole.exit(), name + ", pipeline " + pipeline + ": weir " + String.join(" ", replay) + " exited " + whole.exit()
                        + ":\n" + whole.err() + whole.out());
                    assertSameRows(name + ", pipeline " + pipeline + ", " + pipeline + ".replay.csv (over the archive)",
                        Files.readAllLines(fixture.resolve("expected").resolve(pipeline + ".replay.csv")), Files.readAllLines(outputs.resolve(pipeline + ".replay.csv")));
                }
                if (delivers)
                {
                    final String table = manifest.getProperty("postgres.table");
                    assertSameRows(name + ", pipeline " + pipeline + ", PostgreSQL table " + table,
                        Files.readAllLines(fixture.resolve("expected").resolve("postgres.rows")), FixtureTables.rows(db, schema, table));
                    final Matcher upserted = Pattern.compile("([\\d,]+) results upserted").matcher(resumed.out());
                    assertTrue(upserted.find(), resumed.out());
                    final long resultRows = Files.readAllLines(fixture.resolve("expected").resolve(pipeline + ".results.csv")).size() - 1;
                    assertTrue(Long.parseLong(upserted.group(1).replace(",", "")) <= resultRows - loadedRows, name + ", pipeline " + pipeline
                        + ": the delivery resumed after the position the fixture's weir_offsets row holds (" + loadedRows + " rows delivered before), "
                        + "not from the start: " + upserted.group());
                    final JournalDirectory directory = JournalDirectory.open(journal).pipeline(pipeline);
                    try (OutputJournal output = OutputJournal.open(directory))
                    {
                        assertEquals(List.of(String.valueOf(output.lastPosition())), TestDatabase.rows(db, "SELECT output_position FROM " + schema
                            + ".weir_offsets WHERE journal_id = '" + directory.id() + "' AND results_table = '" + table + "'"),
                            name + ", pipeline " + pipeline + ": the offsets row of the fixture's journal moved to its last output");
                    }
                }
            }
        }
        finally
        {
            if (db != null)
            {
                FixtureTables.dropSchema(db, schema);
                db.close();
            }
        }
    }

    /** @return the files under a partitions directory, relative to it, sorted. */
    private static List<String> partitions(final Path directory) throws IOException
    {
        try (Stream<Path> files = Files.walk(directory))
        {
            return files.filter(Files::isRegularFile).map(f -> directory.relativize(f).toString()).sorted().toList();
        }
    }

    /** Fail naming what is compared, both sizes and the first row that differs. */
    private static void assertSameRows(final String what, final List<String> expected, final List<String> actual)
    {
        final int common = Math.min(expected.size(), actual.size());
        for (int i = 0; i < common; i++)
        {
            if (!expected.get(i).equals(actual.get(i)))
            {
                fail(what + ": row " + i + " differs (" + expected.size() + " rows expected, " + actual.size() + " given; row 0 is the header)"
                    + "\n  expected: " + expected.get(i) + "\n  actual:   " + actual.get(i));
            }
        }
        if (expected.size() != actual.size())
        {
            fail(what + ": " + expected.size() + " rows expected, " + actual.size() + " given; the first " + common + " agree; next "
                + (expected.size() > common ? "expected: " + expected.get(common) : "given: " + actual.get(common)));
        }
    }
}
