package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The headings of {@code --help}: every option of a grouped command is in exactly one section of its table,
 * every command with many options is grouped, and {@code weir run --help} lists its options under them.
 */
class OptionSectionsTest
{
    /** More visible options than this and a command's --help must group them. */
    private static final int MOST_UNGROUPED = 10;

    @Test
    void everyOptionOfAGroupedCommandIsInExactlyOneSectionOfItsTable()
    {
        for (final CommandLine command : commands())
        {
            final List<OptionSections.Section> table = OptionSections.table(command.getCommandName());
            if (table.isEmpty())
            {
                continue;
            }
            final List<String> listed = new ArrayList<>();
            table.forEach(section -> listed.addAll(section.names()));
            for (final OptionSpec option : command.getCommandSpec().options())
            {
                final long times = listed.stream().filter(option.longestName()::equals).count();
                if (!option.hidden() && times != 1)
                {
                    fail("weir " + command.getCommandName() + " " + option.longestName() + " is in " + times
                        + " sections of OptionSections' table: name it in exactly one");
                }
            }
            for (final String name : listed)
            {
                assertTrue(command.getCommandSpec().findOption(name) != null,
                    "OptionSections' table names " + name + ", which weir " + command.getCommandName() + " does not have");
            }
        }
    }

    @Test
    void everyCommandWithManyOptionsGroupsThem()
    {
        for (final CommandLine command : commands())
        {
            final long options = command.getCommandSpec().options().stream().filter(option -> !option.hidden()).count();
            assertTrue(options <= MOST_UNGROUPED || !OptionSections.table(command.getCommandName()).isEmpty(),
                "weir " + command.getCommandName() + " has " + options + " options: give it a table in OptionSections");
        }
    }

    @Test
    void runHelpListsItsOptionsUnderTheirHeadingsOnceEach()
    {
        final Cli help = Cli.run("run", "--help");
        assertEquals(0, help.exit(), help.err());
        final List<String> lines = help.out().lines().toList();
        int previous = -1;
        for (final OptionSections.Section section : OptionSections.table("run"))
        {
            final int heading = lines.indexOf(section.heading() + ":");
            assertTrue(heading > previous, section.heading() + ": a heading after the previous one:\n" + help.out());
            for (final String name : section.names())
            {
                final List<Integer> at = new ArrayList<>();
                for (int i = 0; i < lines.size(); i++)
                {
                    if (lines.get(i).matches("(  -\\w, |      )" + Pattern.quote(name) + "(=|\\s|$).*"))
                    {
                        at.add(i);
                    }
                }
                assertEquals(1, at.size(), name + " is listed once:\n" + help.out());
                assertTrue(at.get(0) > heading, name + " is under " + section.heading() + ":\n" + help.out());
            }
            previous = heading;
        }
        assertFalse(lines.contains(OptionSections.UNGROUPED + ":"), "no option left out of the table:\n" + help.out());
    }

    private static List<CommandLine> commands()
    {
        return new ArrayList<>(new CommandLine(new WeirCommand()).getSubcommands().values());
    }
}
