RUN = True
