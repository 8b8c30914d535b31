from pkg.newmod import init

init()
