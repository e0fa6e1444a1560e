package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A command line that does not parse: an unknown option or command is reported first, with the nearest names
 * as "did you mean", exit code 2; bare {@code weir} lists every command.
 */
class UsageErrorsTest
{
    @Test
    void aMistypedRequiredOptionIsReportedAsUnknownWithTheNearestName()
    {
        final Cli cli = Cli.run("run", "--windw", "tumbling:1s", "--input", "events.csv");
        assertEquals(WeirCommand.USAGE, cli.exit(), cli.err());
        assertEquals(List.of("weir: Unknown option: '--windw'; did you mean: --window?", "Try 'weir run --help' for the flags."),
            cli.err().lines().toList());
    }

    @Test
    void aMistypedOptionWithItsValueAttachedGetsTheNearestName()
    {
        final Cli cli = Cli.run("replay", "--journal", "j", "--window", "tumbling:1s", "--resuts=r.csv");
        assertEquals(WeirCommand.USAGE, cli.exit(), cli.err());
        assertEquals("weir: Unknown option: '--resuts'; did you mean: --results?", cli.err().lines().findFirst().orElseThrow());
    }

    @Test
    void anOptionOfAnotherCommandIsUnknownWithoutAGuess()
    {
        final Cli cli = Cli.run("replay", "--journal", "j", "--window", "tumbling:1s", "--input", "events.csv");
        assertEquals(WeirCommand.USAGE, cli.exit(), cli.err());
        assertEquals("weir: Unknown option: '--input'", cli.err().lines().findFirst().orElseThrow());
    }

    @Test
    void aMistypedCommandGetsTheNearestCommand()
    {
        final Cli cli = Cli.run("rn", "--window", "tumbling:1s");
        assertEquals(WeirCommand.USAGE, cli.exit(), cli.err());
        assertEquals(List.of("weir: Unknown command: 'rn'; did you mean: run?", "Try 'weir --help' for the commands."), cli.err().lines().toList());
    }

    @Test
    void aMissingRequiredOptionIsStillSaid()
    {
        final Cli cli = Cli.run("run", "--input", "events.csv");
        assertEquals(WeirCommand.USAGE, cli.exit(), cli.err());
        assertEquals("weir: Missing required option: '--window=SPEC'", cli.err().lines().findFirst().orElseThrow());
    }

    @Test
    void bareWeirListsEveryCommandWithItsDescription()
    {
        final Cli cli = Cli.run();
        assertEquals(WeirCommand.USAGE, cli.exit(), cli.err());
        assertEquals("", cli.out());
        assertTrue(cli.err().startsWith("weir: a command is required:"), cli.err());
        final CommandLine weir = new CommandLine(new WeirCommand());
        for (final CommandLine command : weir.getSubcommands().values())
        {
            final String firstWords = command.getCommandSpec().usageMessage().description()[0].split(" ", 4)[0];
            assertTrue(cli.err().lines().anyMatch(line -> line.matches("  " + command.getCommandName() + " +" + firstWords + " .*")),
                command.getCommandName() + " is listed with its description:\n" + cli.err());
        }
    }

    @Test
    void theNearestNamesAreTheFewestEditsAwayWithinAThirdOfTheName()
    {
        assertEquals(1, UsageErrors.edits("--jdbc-ulr", "--jdbc-url"), "a swap of two adjacent letters is one edit");
        assertEquals(List.of("--window"), UsageErrors.nearest("--windw", List.of("--where", "--window", "--windows-x")));
        assertEquals(List.of("--to", "--tx"), UsageErrors.nearest("--tp", List.of("--to", "--tx", "--journal")), "ties: each, in order");
        assertEquals(List.of(), UsageErrors.nearest("--input", List.of("--journal", "--to", "--from")), "nothing near enough: no guess");
        assertEquals(List.of("run"), UsageErrors.nearest("rnu", List.of("run", "ingest", "replay")));
    }
}
