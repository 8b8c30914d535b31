import gettext

gettext.install("pkg")
