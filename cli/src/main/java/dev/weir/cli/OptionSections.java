package dev.weir.cli;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The headings a command's options are listed under, in {@code --help} and in the generated CLI reference: a
 * table of option names per command with many options, in the order a user reads them; every other command
 * has one section, "Options". An option the table does not name is listed last, under "Options" (a test keeps
 * the table complete). Immutable and thread-safe.
 */
final class OptionSections
{
    /** The heading of a command's options when they are not grouped, and of the options a table left out. */
    static final String UNGROUPED = "Options";

    private static final Section HELP = new Section("Help", "--help", "--version");
    private static final Section WINDOW = new Section("Window", "--window", "--out-of-orderness", "--allowed-lateness", "--late");
    private static final Section RULE = new Section("Rule", "--key", "--value", "--where", "--aggregate", "--aggregates", "--join", "--join-missing");
    private static final Section EARLY_ROWS = new Section("Early and update rows", "--emit", "--early-when", "--early-once");
    private static final Map<String, List<Section>> BY_COMMAND = Map.of(
        "ingest", List.of(
            new Section("Input", "--input", "--journal", "--columns", "--roll-cycle", "--rejected", "--final", "--sync"),
            new Section("Table", "--table", "--key"),
            HELP),
        "run", List.of(
            new Section("Input", "--input", "--columns", "--journal", "--roll-cycle", "--pipeline", "--rejected", "--dedupe",
                "--resume-after-end"),
            WINDOW, RULE, EARLY_ROWS,
            new Section("Outputs", "--results", "--output-dir", "--format", "--time-format", "--late-output"),
            new Section("PostgreSQL", "--jdbc-url", "--jdbc-table", "--jdbc-batch", "--jdbc-late-table"),
            new Section("Kafka", "--kafka", "--topic", "--record-format", "--group", "--output-topic", "--rejected-topic", "--instance",
                "--commit-interval", "--transaction-timeout", "--session-timeout", "--table"),
            new Section("Follow and retention", "--follow", "--idle-timeout", "--retention", "--archive"),
            new Section("Tuning", "--checkpoint-every", "--sync", "--layout"),
            HELP),
        "replay", List.of(
            new Section("Input", "--journal", "--from", "--to", "--days", "--archive", "--dedupe"),
            WINDOW, RULE, EARLY_ROWS,
            new Section("Outputs", "--results", "--output-dir", "--format", "--time-format", "--late-output"),
            HELP),
        "check", List.of(
            new Section("What to check", "--journal", "--pipeline", "--output-dir", "--jdbc-url", "--jdbc-table"),
            new Section("Thresholds", "--config", "--min-rows", "--max-duplicate-rows", "--max-rejected-rate", "--max-late-rate",
                "--max-duplicate-rate", "--max-staleness", "--now", "--max-gaps", "--from-date", "--to-date"),
            HELP));

    private OptionSections()
    {
    }

    /**
     * A heading and the longest names of its options, in the order listed.
     *
     * @param heading the heading, without a colon.
     * @param names   the options' longest names.
     */
    record Section(String heading, List<String> names)
    {
        Section(final String heading, final String... names)
        {
            this(heading, List.of(names));
        }
    }

    /**
     * @param command a command's name.
     * @return its table of sections, or an empty list if its options are not grouped.
     */
    static List<Section> table(final String command)
    {
        return BY_COMMAND.getOrDefault(command, List.of());
    }

    /**
     * @param spec a command.
     * @return its visible options by heading, in the order listed: the table's sections that have options, then
     *         "Options" with those the table does not name (all of them for a command without a table).
     */
    static List<Map.Entry<String, List<OptionSpec>>> of(final CommandSpec spec)
    {
        final Set<OptionSpec> left = new LinkedHashSet<>();
        spec.options().stream().filter(option -> !option.hidden()).forEach(left::add);
        final List<Map.Entry<String, List<OptionSpec>>> sections = new ArrayList<>();
        for (final Section section : table(spec.name()))
        {
            final List<OptionSpec> options = new ArrayList<>();
            for (final String name : section.names())
            {
                final OptionSpec option = spec.findOption(name);
                if (option != null && left.remove(option))
                {
                    options.add(option);
                }
            }
            if (!options.isEmpty())
            {
                sections.add(Map.entry(section.heading(), options));
            }
        }
        if (!left.isEmpty())
        {
            sections.add(Map.entry(UNGROUPED, new ArrayList<>(left)));
        }
        return sections;
    }

    /**
     * List the options of every command that has a table under its headings in {@code --help}.
     *
     * @param root the {@code weir} command line.
     */
    static void install(final CommandLine root)
    {
        for (final CommandLine command : root.getSubcommands().values())
        {
            if (!table(command.getCommandName()).isEmpty())
            {
                command.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, OptionSections::render);
            }
        }
    }

    private static String render(final Help help)
    {
        final StringBuilder text = new StringBuilder();
        for (final Map.Entry<String, List<OptionSpec>> section : of(help.commandSpec()))
        {
            text.append(help.createHeading("%n" + section.getKey() + ":%n"));
            text.append(help.optionListExcludingGroups(section.getValue(), help.createDefaultLayout(), null, help.parameterLabelRenderer()));
        }
        return text.toString();
    }
}
