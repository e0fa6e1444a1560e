package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code docs/cli-reference.md} is the reference the picocli model generates ({@link CliReference}), so it cannot
 * drift from {@code --help}: the test fails on a difference and names the command that rewrites the file
 * ({@code -Dweir.docs.write=true}).
 */
class CliReferenceTest
{
    private static final Path FILE = Path.of("..", "docs", "cli-reference.md");

    @Test
    void theCommittedReferenceIsTheGeneratedOne() throws IOException
    {
        final String generated = CliReference.markdown(new CommandLine(new WeirCommand()));
        if (Boolean.getBoolean("weir.docs.write"))
        {
            Files.writeString(FILE, generated, StandardCharsets.UTF_8);
        }
        final List<String> want = generated.lines().toList();
        final List<String> have = Files.exists(FILE) ? Files.readString(FILE, StandardCharsets.UTF_8).lines().toList() : List.of();
        for (int i = 0; i < Math.max(want.size(), have.size()); i++)
        {
            final String wanted = i < want.size() ? want.get(i) : "(end of file)";
            final String had = i < have.size() ? have.get(i) : "(end of file)";
            if (!wanted.equals(had))
            {
                fail("docs/cli-reference.md differs from the CLI's options at line " + (i + 1) + ":\n  committed: " + had + "\n  generated: "
                    + wanted + "\nRewrite it with: " + CliReference.REWRITE);
            }
        }
    }

    @Test
    void everyOptionOfEveryCommandIsInTheReference()
    {
        final String reference = CliReference.markdown(new CommandLine(new WeirCommand()));
        for (final CommandLine command : new CommandLine(new WeirCommand()).getSubcommands().values())
        {
            final String section = reference.substring(reference.indexOf("\n## weir " + command.getCommandName() + "\n"));
            final String own = section.substring(0, section.indexOf("\n## ", 1) < 0 ? section.length() : section.indexOf("\n## ", 1));
            for (final OptionSpec option : command.getCommandSpec().options())
            {
                assertTrue(own.contains("`" + option.longestName()), "weir " + command.getCommandName() + " " + option.longestName() + " is listed");
            }
        }
    }
}
