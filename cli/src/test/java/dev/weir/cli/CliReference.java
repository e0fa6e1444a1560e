package dev.weir.cli;

import java.util.List;
import java.util.Map;

import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The command-line reference, {@code docs/cli-reference.md}, generated from the picocli model: each command, its
 * description and synopsis, its arguments, and its options under the headings of {@code --help}
 * ({@link OptionSections}), each with its names, parameter label, default and description. A description's
 * "(default: ...)" moves to the Default column; an option without one shows picocli's default value. Stateless.
 */
final class CliReference
{
    /** The command that rewrites the committed file. */
    static final String REWRITE = "mvn -B -pl cli -am test -Dtest=CliReferenceTest -Dsurefire.failIfNoSpecifiedTests=false -Dweir.docs.write=true";

    private CliReference()
    {
    }

    /**
     * @param weir the {@code weir} command line.
     * @return the reference, in Markdown.
     */
    static String markdown(final CommandLine weir)
    {
        final StringBuilder md = new StringBuilder();
        md.append("# Command-line reference\n\n")
            .append("<!-- Generated from the picocli model by cli/src/test/java/dev/weir/cli/CliReference.java: do not edit.\n")
            .append("     Rewrite it with: ").append(REWRITE).append(" -->\n\n")
            .append("This page lists every `weir` command and all its options, as `weir COMMAND --help` prints them and under the same ")
            .append("headings. The [command guide](cli.md) says what each command is for, with examples.\n\n")
            .append("## Commands\n\n")
            .append("| Command | What it does |\n|---|---|\n");
        for (final CommandLine command : weir.getSubcommands().values())
        {
            final CommandSpec spec = command.getCommandSpec();
            md.append("| [`").append(spec.qualifiedName()).append("`](#").append(spec.qualifiedName().replace(' ', '-')).append(") | ")
                .append(cell(spec.usageMessage().description()[0])).append(" |\n");
        }
        md.append("\nBare `weir` lists the commands. `weir --help` and `weir --version` print the usage and the version.\n");
        for (final CommandLine command : weir.getSubcommands().values())
        {
            command(md, command.getCommandSpec());
        }
        return md.toString();
    }

    private static void command(final StringBuilder md, final CommandSpec spec)
    {
        final Help help = new Help(spec, Help.defaultColorScheme(Help.Ansi.OFF));
        md.append("\n## ").append(spec.qualifiedName()).append("\n\n")
            .append(String.join(" ", spec.usageMessage().description())).append("\n\n")
            .append("```text\n").append(help.synopsis(0).stripTrailing()).append("\n```\n");
        final List<PositionalParamSpec> arguments = spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
        if (!arguments.isEmpty())
        {
            md.append("\n### Arguments\n\n| Argument | Default | Description |\n|---|---|---|\n");
            for (final PositionalParamSpec argument : arguments)
            {
                row(md, "`" + argument.paramLabel() + "`", argument);
            }
        }
        for (final Map.Entry<String, List<OptionSpec>> section : OptionSections.of(spec))
        {
            md.append("\n### ").append(section.getKey()).append("\n\n| Option | Default | Description |\n|---|---|---|\n");
            for (final OptionSpec option : section.getValue())
            {
                final String label = help.parameterLabelRenderer().renderParameterLabel(option, Help.Ansi.OFF, List.of()).toString();
                final StringBuilder names = new StringBuilder();
                for (final String name : option.names())
                {
                    names.append(names.length() == 0 ? "`" : ", `").append(name).append(name.equals(option.longestName()) ? label : "").append('`');
                }
                row(md, names.toString().replace("|", "\\|"), option);
            }
        }
    }

    private static void row(final StringBuilder md, final String names, final ArgSpec arg)
    {
        String description = String.join(" ", arg.description());
        String defaultValue = arg.required() ? "required" : "";
        final int at = description.lastIndexOf("(default");
        final int end = at < 0 ? -1 : closing(description, at);
        if (end > 0)
        {
            defaultValue = description.substring(at + "(default".length(), end).replaceFirst("^:? ", "");
            description = (description.substring(0, at).stripTrailing() + description.substring(end + 1)).trim();
        }
        else if (defaultValue.isEmpty() && arg.defaultValue() != null && !arg.typeInfo().isBoolean())
        {
            defaultValue = arg.defaultValue();
        }
        md.append("| ").append(names).append(" | ").append(cell(defaultValue)).append(" | ").append(cell(description)).append(" |\n");
    }

    /** The index of the parenthesis that closes the one at {@code open}, or -1. */
    private static int closing(final String text, final int open)
    {
        int depth = 0;
        for (int i = open; i < text.length(); i++)
        {
            if (text.charAt(i) == '(')
            {
                depth++;
            }
            else if (text.charAt(i) == ')' && --depth == 0)
            {
                return i;
            }
        }
        return -1;
    }

    /** Text in a table cell: a pipe would end the cell, an angle bracket start an HTML tag. */
    private static String cell(final String text)
    {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }
}
