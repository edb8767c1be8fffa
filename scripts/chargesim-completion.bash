# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for chargesim(1): commands, each command's options and
# what each option's value may be, all asked of the program itself: the
# commands' option tables (`chargesim --options [COMMAND]`, one line per
# option: its spelling, its type, its allowed values; include/chargesim/
# options.h), so no option is listed here; ruleset names (`chargesim
# rules`), and files by kind. Installed by `make install` as
# PREFIX/share/bash-completion/completions/chargesim.

_chargesim_rulesets()
{
    # The first word of each line of `chargesim rules` is a ruleset name.
    "${COMP_WORDS[0]}" rules 2>/dev/null | awk '{ print $1 }'
}

_chargesim()
{
    local cur prev cmd table line type
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}

    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" --options 2>/dev/null) --help -h --version -V" -- "$cur"))
        return 0
    fi
    cmd=${COMP_WORDS[1]}
    table=$("${COMP_WORDS[0]}" --options "$cmd" 2>/dev/null) || return 0

    # The value of the option before the word: its type says what it may be.
    line=$(printf '%s\n' "$table" | awk -v p="$prev" '$1 == p { print; exit }')
    if [ -n "$line" ]; then
        set -- $line
        type=$2
        shift 2
        case $type in
        choice)
            COMPREPLY=($(compgen -W "$*" -- "$cur"))
            return 0 ;;
        ruleset)
            COMPREPLY=($(compgen -W "$(_chargesim_rulesets)" -- "$cur"))
            return 0 ;;
        file)
            case $prev in
            --plot)
                COMPREPLY=($(compgen -f -X '!*.svg' -- "$cur") $(compgen -f -X '!*.png' -- "$cur")
                           $(compgen -f -X '!*.pdf' -- "$cur") $(compgen -d -- "$cur")) ;;
            --mapping)
                COMPREPLY=($(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur")) ;;
            *)
                COMPREPLY=($(compgen -f -- "$cur")) ;;
            esac
            return 0 ;;
        flag) ;;
        *)
            return 0 ;;
        esac
    fi

    if [ "$cmd" = rules ]; then
        if [ "$COMP_CWORD" -eq 2 ]; then
            COMPREPLY=($(compgen -W "$(_chargesim_rulesets) --help -h" -- "$cur"))
        fi
        return 0
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(printf '%s\n' "$table" | awk '{ print $1 }')" -- "$cur"))
        return 0
    fi
    case $cmd in
    run | compare | draw | map)
        COMPREPLY=($(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur")) ;;
    rerun)
        COMPREPLY=($(compgen -f -X '!*-metadata.json' -- "$cur") $(compgen -d -- "$cur")) ;;
    units)
        COMPREPLY=($(compgen -f -X '!*.cat' -- "$cur") $(compgen -f -X '!*.gst' -- "$cur")
                   $(compgen -f -X '!*.csv' -- "$cur") $(compgen -d -- "$cur")) ;;
    esac
    return 0
}

complete -o filenames -F _chargesim chargesim
