package dev.weir.cli;

import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import dev.weir.engine.time.UnitlessDurationException;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * How a command line that does not parse is reported: one {@code weir: ...} line and a hint, exit code 2. An
 * unknown option or command is reported before any other error (a mistyped required option would otherwise be
 * reported as missing), with the nearest names of that command as "did you mean" (names at most two edits away,
 * or a third of the name's length; else picocli's own suggestions, by prefix). Stateless and thread-safe.
 */
final class UsageErrors implements CommandLine.IParameterExceptionHandler
{
    private static final String WHILE_PROCESSING = " (while processing option:";

    @Override
    public int handleParseException(final CommandLine.ParameterException ex, final String[] args)
    {
        final CommandLine unknownIn = firstWithUnknown(ex.getCommandLine());
        final CommandLine cmd = unknownIn != null ? unknownIn : ex.getCommandLine();
        final PrintWriter err = cmd.getErr();
        if (unknownIn == null)
        {
            err.println("weir: " + (ex.getCause() instanceof UnitlessDurationException unitless && ex.getArgSpec() instanceof OptionSpec option
                ? option.longestName() + " " + ex.getValue() + ": " + unitless.reason() : ex.getMessage()));
        }
        else
        {
            err.println("weir: " + unknown(unknownIn));
        }
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for the "
            + (cmd.getSubcommands().isEmpty() ? "flags." : "commands."));
        err.flush();
        return WeirCommand.USAGE;
    }

    /** The outermost command (the first on the command line) that was given arguments it does not know, or null. */
    private static CommandLine firstWithUnknown(final CommandLine failed)
    {
        final Deque<CommandLine> chain = new ArrayDeque<>();
        for (CommandLine cmd = failed; cmd != null; cmd = cmd.getParent())
        {
            chain.push(cmd);
        }
        for (final CommandLine cmd : chain)
        {
            if (!cmd.getUnmatchedArguments().isEmpty())
            {
                return cmd;
            }
        }
        return null;
    }

    private static String unknown(final CommandLine cmd)
    {
        String arg = cmd.getUnmatchedArguments().get(0);
        final int note = arg.indexOf(WHILE_PROCESSING);
        arg = note < 0 ? arg : arg.substring(0, note);
        final CommandLine.UnmatchedArgumentException unmatched = new CommandLine.UnmatchedArgumentException(cmd, List.of(arg));
        final boolean option = unmatched.isUnknownOption();
        if (!option && cmd.getSubcommands().isEmpty())
        {
            return unmatched.getMessage();
        }
        final List<String> names = new ArrayList<>();
        if (option)
        {
            for (final OptionSpec spec : cmd.getCommandSpec().options())
            {
                if (!spec.hidden())
                {
                    names.add(spec.longestName());
                }
            }
        }
        else
        {
            names.addAll(cmd.getSubcommands().keySet());
        }
        final String typed = option ? arg.split("=", 2)[0] : arg;
        List<String> nearest = nearest(typed, names);
        if (nearest.isEmpty())
        {
            nearest = unmatched.getSuggestions();
        }
        final String message = (option ? "Unknown option: '" : "Unknown command: '") + typed + "'";
        return nearest.isEmpty() ? message : message + "; did you mean: " + String.join(" or ", nearest) + "?";
    }

    /** The names fewest edits away from the typed one, if near enough to be a typing mistake. */
    static List<String> nearest(final String typed, final List<String> names)
    {
        final List<String> nearest = new ArrayList<>();
        int best = Math.max(2, typed.length() / 3);
        for (final String name : names)
        {
            final int distance = edits(typed, name);
            if (distance <= best)
            {
                if (distance < best)
                {
                    best = distance;
                    nearest.clear();
                }
                nearest.add(name);
            }
        }
        return nearest;
    }

    /** Edits (insert, delete, replace a character, swap two adjacent ones) that turn one string into the other. */
    static int edits(final String a, final String b)
    {
        final int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++)
        {
            for (int j = 0; j <= b.length(); j++)
            {
                if (i == 0 || j == 0)
                {
                    d[i][j] = i + j;
                    continue;
                }
                final int replace = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + replace);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1))
                {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
