package io.gtran.bench;

/**
 * Command-line option parsing shared by the benchmark mains: a bad option or value ends the
 * process with exit code 2 and a message naming the command, the option and the value.
 */
public final class BenchArgs {
    private final String command;

    /** @param command how the user invoked it, for messages (e.g. {@code "bench gc"}) */
    public BenchArgs(String command) {
        this.command = command;
    }

    /** The value after option {@code args[i - 1]}, i.e. {@code args[i]}. */
    public String value(String[] args, int i, String option) {
        if (i >= args.length) {
            fail("option " + option + " needs a value");
        }
        return args[i];
    }

    /** An int; underscores are allowed as digit separators ({@code 1_000_000}). */
    public int parseInt(String option, String value) {
        long parsed = parseLong(option, value);
        if (parsed != (int) parsed) {
            fail("option " + option + " is out of range: " + value);
        }
        return (int) parsed;
    }

    /** A long; underscores are allowed as digit separators. */
    public long parseLong(String option, String value) {
        try {
            return Long.parseLong(value.replace("_", ""));
        } catch (NumberFormatException e) {
            fail("option " + option + " needs an integer: " + value);
            return 0;
        }
    }

    public double parseDouble(String option, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            fail("option " + option + " needs a number: " + value);
            return 0;
        }
    }

    /** Adds a {@code --set KEY=VALUE} setting to {@code settings}; fails on a value without '='. */
    public void setting(String setting, java.util.Map<String, String> settings) {
        int eq = setting.indexOf('=');
        if (eq <= 0) {
            fail("option --set needs key=value: " + setting);
        }
        settings.put(setting.substring(0, eq), setting.substring(eq + 1));
    }

    /** Prints {@code "<command>: <message>"} to standard error and exits with code 2. */
    public void fail(String message) {
        System.err.println(command + ": " + message);
        System.exit(2);
    }
}
