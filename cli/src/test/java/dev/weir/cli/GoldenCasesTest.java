package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.weir.files.ResultRow;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every golden case (expected output computed by Apache Flink) through the {@code weir run} command line,
 * journal included: results compared as sorted multisets, late rows in order. The cases are read from
 * {@code ../shared/golden} when it is there (new cases are picked up), else from the copy in the test
 * resources.
 */
class GoldenCasesTest
{
    @TempDir
    Path out;

    @TestFactory
    Stream<DynamicTest> everyGoldenCaseReproducesThroughTheCli() throws IOException
    {
        final List<Path> cases = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(goldenRoot()))
        {
            dirs.filter(d -> Files.isRegularFile(d.resolve("flags"))).sorted().forEach(cases::add);
        }
        assertTrue(cases.size() >= 8, "golden cases found in " + goldenRoot() + ": " + cases.size());
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.getFileName().toString(), () -> runCase(c)));
    }

    private void runCase(final Path golden) throws IOException
    {
        final String name = golden.getFileName().toString();
        final List<String> args = new ArrayList<>(List.of("run", "--input", golden.resolve("events.csv").toString()));
        final String flags = Files.readString(golden.resolve("flags")).trim();
        args.addAll(List.of(flags.split("\\s+")));
        final Path results = out.resolve(name + ".csv");
        final Path late = out.resolve(name + ".late.csv");
        args.addAll(List.of("--results", results.toString(), "--late-output", late.toString()));

        final Cli cli = Cli.run(args.toArray(String[]::new));
        assertEquals(0, cli.exit(), cli.err());
        assertEquals(sortedBody(golden.resolve("expected-results.csv")), sortedBody(results), name + " results");
        assertEquals(body(golden.resolve("expected-late.csv")), body(late), name + " late rows");
        assertEquals(ResultRow.HEADER, Files.readAllLines(results).get(0));
    }

    static Path goldenRoot()
    {
        final String configured = System.getProperty("weir.golden.dir");
        if (configured != null && Files.isDirectory(Path.of(configured)))
        {
            return Path.of(configured);
        }
        return Path.of("src/test/resources/golden");
    }

    private static List<String> body(final Path csv) throws IOException
    {
        final List<String> lines = Files.readAllLines(csv);
        return new ArrayList<>(lines.subList(1, lines.size()));
    }

    private static List<String> sortedBody(final Path csv) throws IOException
    {
        final List<String> rows = body(csv);
        rows.sort(null);
        return rows;
    }
}
