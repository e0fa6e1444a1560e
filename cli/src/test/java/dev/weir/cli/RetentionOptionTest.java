package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir run --retention DURATION [--archive DIR]} is refused with exit 2 and one line when it cannot be
 * applied: without {@code --follow}, with a file export written from the output journal ({@code --results},
 * {@code --output-dir}, {@code --late-output}), with a duration that does not parse or is negative, and {@code --archive} without it.
 */
class RetentionOptionTest
{
    @TempDir
    Path dir;

    @Test
    void retentionThatCannotBeAppliedIsRefusedWithExit2()
    {
        final String journal = dir.resolve("j").toString();
        final String url = "jdbc:postgresql://127.0.0.1:1/none";
        assertRefused("--retention needs --follow", "run", "--journal", journal, "--window", "tumbling:1s", "--jdbc-url", url,
            "--retention", "1h");
        assertRefused("--results cannot go with --retention", "run", "--journal", journal, "--window", "tumbling:1s", "--follow",
            "--results", dir.resolve("r.csv").toString(), "--retention", "1h");
        assertRefused("--output-dir cannot go with --retention", "run", "--journal", journal, "--window", "tumbling:1s", "--follow",
            "--output-dir", dir.resolve("parts").toString(), "--retention", "1h");
        assertRefused("--late-output cannot go with --retention", "run", "--journal", journal, "--window", "tumbling:1s", "--follow",
            "--late", "side", "--late-output", dir.resolve("late.csv").toString(), "--jdbc-url", url, "--retention", "1h");
        assertRefused("--archive needs --retention DURATION", "run", "--journal", journal, "--window", "tumbling:1s", "--follow",
            "--jdbc-url", url, "--archive", dir.resolve("a").toString());
        assertRefused("'-1m' is not a duration", "run", "--journal", journal, "--window", "tumbling:1s", "--follow", "--jdbc-url", url,
            "--retention", "-1m");
        assertRefused("'soon' is not a duration", "run", "--journal", journal, "--window", "tumbling:1s", "--follow", "--jdbc-url", url,
            "--retention", "soon");
    }

    private static void assertRefused(final String message, final String... args)
    {
        final Cli cli = Cli.run(args);
        assertEquals(2, cli.exit(), cli.out() + cli.err());
        assertTrue(cli.err().contains(message), cli.err());
    }
}
