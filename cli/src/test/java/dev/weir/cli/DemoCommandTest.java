package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest
{
    @TempDir
    Path dir;

    @Test
    void theDemoRunsTwiceWithTheSameResultsAndRefusesAForeignDirectory() throws IOException
    {
        final Path demo = dir.resolve("demo");
        final Cli first = Cli.run("demo", "--dir", demo.toString(), "--payments", "20000", "--cards", "300");
        assertEquals(0, first.exit(), first.err());
        assertTrue(first.out().contains("20,000 events ingested"), first.out());
        assertTrue(first.out().contains("3 rejected"), first.out());
        assertTrue(first.out().contains("Busiest card-windows"), first.out());
        final List<String> results = Files.readAllLines(demo.resolve("results.csv"));
        assertTrue(results.size() > 100, "results: " + results.size());

        final Cli second = Cli.run("demo", "--dir", demo.toString(), "--payments", "20000", "--cards", "300");
        assertEquals(0, second.exit(), second.err());
        assertEquals(results, Files.readAllLines(demo.resolve("results.csv")), "same seed, same bytes");

        final Path foreign = dir.resolve("foreign");
        Files.createDirectories(foreign);
        Files.writeString(foreign.resolve("keep.txt"), "x");
        final Cli refused = Cli.run("demo", "--dir", foreign.toString());
        assertEquals(2, refused.exit());
        assertEquals(List.of(foreign.resolve("keep.txt")), Files.list(foreign).toList());
    }
}
