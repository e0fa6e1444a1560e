package dev.weir.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Checks that every {@code --flag} the documentation shows in code (inline code, fenced blocks) is an option of
 * some {@code weir} command of the picocli model, except in a command of another tool: a command (a fenced line,
 * or a part of it after {@code |}, {@code &&} or {@code ;}, or an inline code span) is another tool's when a word
 * before its first flag is one of {@link #OTHER_TOOLS}, starts with {@code kafka-} or is a script of
 * Python ({@code .py}); and except the JVM's
 * {@link #JVM_FLAGS}. Stateless; safe from any thread.
 */
final class DocsFlags
{
    /** The commands whose flags are not Weir's (compared with a word's file name, so {@code ./mvnw} counts). */
    static final Set<String> OTHER_TOOLS = Set.of("mvn", "mvnw", "java", "javac", "psql", "pg_ctl", "pg_ctlcluster", "docker", "curl", "git",
        "apt-get", "cp");

    /** The JVM's own flags, shown wherever a service passes them to java (a pom's argLine, an error message). */
    static final Set<String> JVM_FLAGS = Set.of("--add-opens", "--add-exports");

    private static final Pattern FLAG = Pattern.compile("(?<![\\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)");
    private static final Pattern SEPARATOR = Pattern.compile("\\|\\|?|&&|;");

    private DocsFlags()
    {
    }

    /**
     * @return every long option name of every {@code weir} command and subcommand, with its dashes.
     */
    static Set<String> weirFlags()
    {
        final Set<String> flags = new TreeSet<>();
        collect(new CommandLine(new WeirCommand()).getCommandSpec(), flags);
        return flags;
    }

    /**
     * @param pages the pages to check.
     * @param flags the flags that exist.
     * @return one message per unknown flag ({@code page:line: --flag ... in 'code'}); empty when all exist.
     */
    static List<String> unknown(final List<MarkdownPage> pages, final Set<String> flags)
    {
        final List<String> unknown = new ArrayList<>();
        for (final MarkdownPage page : pages)
        {
            for (final MarkdownPage.Located code : page.code())
            {
                for (final String command : SEPARATOR.split(code.text()))
                {
                    final Matcher flag = FLAG.matcher(command);
                    if (!flag.find() || otherTool(command.substring(0, flag.start())))
                    {
                        continue;
                    }
                    do
                    {
                        if (!flags.contains(flag.group()) && !JVM_FLAGS.contains(flag.group()))
                        {
                            unknown.add(page.name() + ":" + code.line() + ": " + flag.group() + " is an option of no weir command, in '"
                                + code.text().strip() + "'");
                        }
                    }
                    while (flag.find());
                }
            }
        }
        return unknown;
    }

    private static boolean otherTool(final String words)
    {
        for (final String word : words.trim().split("\\s+"))
        {
            final String command = word.replaceAll("^[($\"'`]+", "");
            final String name = command.substring(command.lastIndexOf('/') + 1);
            if (OTHER_TOOLS.contains(name) || name.startsWith("kafka-") || name.endsWith(".py"))
            {
                return true;
            }
        }
        return false;
    }

    private static void collect(final CommandSpec command, final Set<String> flags)
    {
        for (final OptionSpec option : command.options())
        {
            for (final String name : option.names())
            {
                if (name.startsWith("--"))
                {
                    flags.add(name);
                }
            }
        }
        for (final CommandLine sub : command.subcommands().values())
        {
            collect(sub.getCommandSpec(), flags);
        }
    }
}
